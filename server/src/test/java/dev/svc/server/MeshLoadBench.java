package dev.svc.server;

import static dev.svc.server.TestServers.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.server.config.ConfigKey;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.engine.SupervisedEngines;
import dev.svc.server.mesh.tailnet.LocalApiClient;
import dev.svc.server.mesh.tailnet.NodeLogin;
import dev.svc.server.testkit.FakeTailscaledMain;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A measurement, not a test (its name keeps it out of the test run): what admission through a
 * tailnet costs. It prints the latency of one who-is against the fake daemon, which runs in a JVM of
 * its own (p50/p99, one call at a time and 16 at a time), and the requests per second of the eval route under wrk with admission
 * through the fake versus mesh mode dev, alternating the two in the same run.
 *
 * <pre>mvn -q -o -pl server -am test -Dtest=MeshLoadBench -Dsurefire.failIfNoSpecifiedTests=false</pre>
 */
@ExtendWith(VertxExtension.class)
class MeshLoadBench {

  private static final String PEER = "100.101.1.2";
  private static final String BODY = "{\"input\": {\"user\": {\"name\": \"ann\", \"teams\": [\"payments\"], \"admin\": false},"
      + " \"action\": \"read\", \"resource\": {\"name\": \"ledger\", \"team\": \"payments\"}}}";

  @Test
  void measure(Vertx vertx) throws Exception {
    Path socket = Files.createTempDirectory("fake-ts").resolve("tailscaled.sock");
    Process daemon = startDaemon(socket);
    try {
      whoIsLatency(vertx, socket);
      throughput(socket);
    } finally {
      daemon.getOutputStream().close();
      if (!daemon.waitFor(10, TimeUnit.SECONDS)) {
        daemon.destroyForcibly();
      }
    }
  }

  /**
   * The fake daemon in a JVM of its own, so the numbers count only the server's side of a who-is.
   * It runs until its standard input closes.
   */
  private static Process startDaemon(Path socket) throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process daemon = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
        FakeTailscaledMain.class.getName(), socket.toString(), PEER, "ann@corp.example",
        "{\"svc.dev/cap/svc\":[{\"role\":\"view\",\"period\":\"1h\"}]}")
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    BufferedReader lines = new BufferedReader(new InputStreamReader(daemon.getInputStream(), StandardCharsets.UTF_8));
    String line = lines.readLine();
    if (!FakeTailscaledMain.READY.equals(line)) {
      daemon.destroy();
      throw new IllegalStateException("the fake daemon didn't start: " + line);
    }
    return daemon;
  }

  private static void whoIsLatency(Vertx vertx, Path socket) {
    LocalApiClient client = new LocalApiClient(vertx, socket, new ObjectMapper(), Clock.systemUTC());
    try {
      for (int inFlight : new int[] {1, 16}) {
        run(client, inFlight, 2000); // warm-up
        long[] nanos = run(client, inFlight, 5000);
        Arrays.sort(nanos);
        System.out.printf("who-is against the fake, %d in flight: p50 %.3f ms, p99 %.3f ms (%d calls)%n", inFlight,
            nanos[nanos.length / 2] / 1e6, nanos[nanos.length * 99 / 100] / 1e6, nanos.length);
      }
    } finally {
      await(client.close());
    }
  }

  /** {@code calls} who-is calls, {@code inFlight} at a time; each call's latency. */
  private static long[] run(LocalApiClient client, int inFlight, int calls) {
    long[] nanos = new long[calls];
    for (int batch = 0; batch < calls; batch += inFlight) {
      List<Future<?>> pending = new ArrayList<>();
      for (int i = batch; i < Math.min(calls, batch + inFlight); i++) {
        int slot = i;
        long start = System.nanoTime();
        pending.add(client.whoIs("127.0.0.1:" + (20000 + i % 1000)).onSuccess(c -> nanos[slot] = System.nanoTime() - start));
      }
      await(Future.all(pending));
    }
    return nanos;
  }

  private static void throughput(Path socket) throws Exception {
    Map<ConfigKey, String> policies = Map.of(ConfigKey.POLICIES_DIR, "../conf/policies",
        ConfigKey.POLICIES_INSTALL, "[\"access.main\"]", ConfigKey.POLICIES_RELOAD, "false");
    SvcConfig dev = TestServers.config(policies);
    Map<ConfigKey, String> external = new java.util.HashMap<>(policies);
    external.put(ConfigKey.MESH_MODE, "external");
    external.put(ConfigKey.MESH_SOCKET, socket.toString());
    SvcConfig tailnet = TestServers.config(external);
    SvcServer devServer = await(SvcServer.create(dev, SvcServer.mesh(dev.mesh(), new NodeLogin("", false), Map.of()),
        registry -> SupervisedEngines.start(dev.engine(), registry)).start());
    SvcServer meshServer = await(SvcServer.create(tailnet, SvcServer.mesh(tailnet.mesh(), new NodeLogin("", false),
        Map.of()), registry -> SupervisedEngines.start(tailnet.engine(), registry)).start());
    Path script = Files.createTempFile("eval", ".lua");
    Files.writeString(script, "wrk.method = \"POST\"\nwrk.headers[\"Content-Type\"] = \"application/json\"\n"
        + "wrk.body = '" + BODY + "'\n");
    try {
      // Long warm-ups: on 2 shared cores the JIT still compiles the hot paths after 10 s of load.
      wrk(devServer.apiPort(), script, "30s");
      wrk(meshServer.apiPort(), script, "30s");
      List<Double> devRates = new ArrayList<>();
      List<Double> meshRates = new ArrayList<>();
      for (int round = 0; round < 3; round++) {
        devRates.add(wrk(devServer.apiPort(), script, "10s"));
        meshRates.add(wrk(meshServer.apiPort(), script, "10s"));
      }
      double devMean = devRates.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
      double meshMean = meshRates.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
      System.out.printf("eval req/s, mesh mode dev: %s, mean %.0f%n", devRates, devMean);
      System.out.printf("eval req/s, admission through the fake tailscaled: %s, mean %.0f%n", meshRates, meshMean);
      System.out.printf("admission cost: %.1f %% of dev throughput%n", 100 * (1 - meshMean / devMean));
    } finally {
      await(devServer.stop());
      await(meshServer.stop());
    }
  }

  /** One wrk run of 16 connections on the eval route; its requests per second. */
  private static double wrk(int port, Path script, String duration) throws IOException, InterruptedException {
    Process wrk = new ProcessBuilder("wrk", "-t", "1", "-c", "16", "-d", duration, "--latency", "-s", script.toString(),
        "http://127.0.0.1:" + port + "/api/v1/policies/access.main/eval").redirectErrorStream(true).start();
    String output = new String(wrk.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    wrk.waitFor();
    System.out.println("wrk :" + port + " " + output.lines().filter(l -> l.contains("Requests/sec") || l.contains("50%")
        || l.contains("99%") || l.contains("Non-2xx")).toList());
    return output.lines().filter(l -> l.startsWith("Requests/sec:")).findFirst()
        .map(l -> Double.parseDouble(l.substring("Requests/sec:".length()).trim())).orElse(0.0);
  }
}
