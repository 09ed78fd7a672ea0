package dev.svc.server.mesh.tailnet;

import dev.svc.server.testkit.FakeTailscaledMain;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.tracing.TracingPolicy;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A measurement, not a test (its name keeps it out of the test run): the server's side of one
 * who-is on the lean path ({@link LocalApiConnections}) against the same call through Vert.x's HTTP
 * client as the server made it before (a pool of 16, tracing propagated), interleaved round by round
 * in one JVM so both see the same machine. Calls are made from an event loop as the API makes them,
 * 16 and 1 at a time, against the fake daemon in a process of its own; it prints the event loops'
 * CPU and the whole process's CPU per call.
 *
 * <pre>mvn -q -o -pl server -am test -Dtest=WhoIsPathBench -Dsurefire.failIfNoSpecifiedTests=false</pre>
 */
public class WhoIsPathBench {

  private static final String URI = "/localapi/v0/whois?addr=127.0.0.1%3A40001";

  /** What one path cost over {@code calls} calls. */
  private record Cost(int calls, long wallNanos, long processCpuNanos, long loopCpuNanos) {
    String perCall() {
      return String.format("wall %.1f us, event loops' CPU %.1f us, process CPU %.1f us", wallNanos / 1e3 / calls,
          loopCpuNanos / 1e3 / calls, processCpuNanos / 1e3 / calls);
    }
  }

  /** For JUnit. */
  WhoIsPathBench() {}

  @Test
  void measure() throws Exception {
    Path socket = Files.createTempDirectory("who-is-bench").resolve("tailscaled.sock");
    Process daemon = startDaemon(socket);
    Vertx vertx = Vertx.vertx();
    try {
      SocketAddress address = SocketAddress.domainSocketAddress(socket.toString());
      HttpClient http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true)
          .setDefaultHost(LocalApiClient.HOST).setDefaultPort(80).setTracingPolicy(TracingPolicy.PROPAGATE),
          new PoolOptions().setHttp1MaxSize(16));
      LocalApiConnections lean = new LocalApiConnections(vertx, address, LocalApiClient.CALL_TIMEOUT,
          LocalApiClient.MAX_ANSWER_BYTES);
      Supplier<Future<?>> httpClient = () -> http.request(new RequestOptions().setServer(address)
          .setHost(LocalApiClient.HOST).setPort(80).setMethod(HttpMethod.GET).setURI(URI))
          .compose(request -> request.send()).compose(HttpClientResponse::body);
      Supplier<Future<?>> leanPath = () -> LocalApiConnectionsTest.get(lean, URI).map(HttpAnswer::body);
      Context loop = vertx.getOrCreateContext();
      for (int inFlight : new int[] {16, 1}) {
        run(loop, httpClient, 10000, inFlight); // warm-up
        run(loop, leanPath, 10000, inFlight);
        for (int round = 0; round < 3; round++) {
          System.out.printf("who-is, %d in flight, Vert.x HTTP client: %s%n", inFlight,
              run(loop, httpClient, 30000, inFlight).perCall());
          System.out.printf("who-is, %d in flight, lean path:          %s%n", inFlight,
              run(loop, leanPath, 30000, inFlight).perCall());
        }
      }
      lean.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } finally {
      daemon.getOutputStream().close();
      if (!daemon.waitFor(10, TimeUnit.SECONDS)) {
        daemon.destroyForcibly();
      }
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  private static Process startDaemon(Path socket) throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process daemon = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
        FakeTailscaledMain.class.getName(), socket.toString(), "100.101.1.2", "ann@corp.example",
        "{\"svc.dev/cap/svc\":[{\"role\":\"view\",\"period\":\"1h\"}]}")
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String line = new BufferedReader(new InputStreamReader(daemon.getInputStream(), StandardCharsets.UTF_8)).readLine();
    if (!FakeTailscaledMain.READY.equals(line)) {
      daemon.destroy();
      throw new IllegalStateException("the fake daemon didn't start: " + line);
    }
    return daemon;
  }

  private static Cost run(Context loop, Supplier<Future<?>> call, int calls, int inFlight) {
    long loopCpu = eventLoopCpuNanos();
    long cpu = processCpuNanos();
    long start = System.nanoTime();
    calls(loop, call, calls, inFlight);
    return new Cost(calls, System.nanoTime() - start, processCpuNanos() - cpu, eventLoopCpuNanos() - loopCpu);
  }

  /**
   * Makes {@code calls} calls on {@code loop}, as the API makes who-is calls: a new one as each ends,
   * {@code inFlight} at a time.
   *
   * @param loop the event loop context the calls are made on
   * @param call makes one call
   * @param calls how many calls
   * @param inFlight how many at a time
   * @return each call's latency in nanoseconds, in the order they were made
   */
  public static long[] calls(Context loop, Supplier<Future<?>> call, int calls, int inFlight) {
    long[] nanos = new long[calls];
    Promise<Void> done = Promise.promise();
    loop.runOnContext(v -> {
      int[] issued = {0};
      int[] ended = {0};
      Runnable[] next = new Runnable[1];
      next[0] = () -> {
        int slot = issued[0]++;
        long start = System.nanoTime();
        call.get().onComplete(answer -> {
          nanos[slot] = System.nanoTime() - start;
          if (answer.failed()) {
            done.tryFail(answer.cause());
          } else if (++ended[0] == calls) {
            done.tryComplete();
          } else if (issued[0] < calls) {
            next[0].run();
          }
        });
      };
      for (int i = 0; i < inFlight; i++) {
        next[0].run();
      }
    });
    try {
      done.future().toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
    } catch (InterruptedException | java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("the calls didn't end", e);
    }
    return nanos;
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /**
   * The CPU time the Vert.x event loop threads of this JVM used so far.
   *
   * @return nanoseconds
   */
  public static long eventLoopCpuNanos() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (ThreadInfo thread : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (thread != null && thread.getThreadName().startsWith("vert.x-eventloop")) {
        sum += Math.max(0, threads.getThreadCpuTime(thread.getThreadId()));
      }
    }
    return sum;
  }
}
