package dev.svc.server;

import static dev.svc.server.TestServers.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.server.config.ConfigKey;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.engine.SupervisedEngines;
import dev.svc.server.mesh.tailnet.LocalApiClient;
import dev.svc.server.mesh.tailnet.NodeLogin;
import dev.svc.server.mesh.tailnet.WhoIsPathBench;
import dev.svc.server.testkit.FakeTailscaledMain;
import io.vertx.core.Context;
import dev.svc.server.mesh.Caller;
import dev.svc.server.mesh.Mesh;
import dev.svc.server.mesh.MeshStatus;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.junit5.VertxExtension;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A measurement, not a test (its name keeps it out of the test run): what admission through a
 * tailnet costs. It prints the latency of one who-is against the fake daemon, which runs in a JVM of
 * its own (p50/p99, one call at a time and 16 at a time) with the server's CPU per who-is
 * ({@link WhoIsPathBench} compares that path with Vert.x's HTTP client), and the requests per second
 * of the eval route under wrk
 * (16 and 64 connections) with admission through the fake versus mesh mode dev, alternating the two in the same
 * run, with the CPU time per request of the server and of the fake daemon.
 *
 * <pre>mvn -q -o -pl server -am test -Dtest=MeshLoadBench -Dsurefire.failIfNoSpecifiedTests=false</pre>
 *
 * <p>The servers and the fake daemon run on Netty's native epoll transport where it loads, as
 * {@code svc serve} does; {@code -Dio.netty.transport.noNative=true} runs all of them on Java's NIO.
 *
 * <p>The servers listen on fixed ports, as {@code svc serve} does, so the API runs one event loop per
 * processor (on port 0 it would run one).
 *
 * <p>{@code -Dbench.daemonCpus=2} runs the fake daemon under {@code taskset -c 2}: on a machine with
 * cores to spare, a core of its own keeps the daemon's CPU out of the server's, as a sidecar's would be
 * ({@code taskset -c 0 mvn ... -Dbench.daemonCpus=1} gives a 2-core machine's second core to the fake
 * alone). Without it the report also prints how much of dev's throughput the fake's CPU alone takes
 * from the cores it shares with the server and wrk.
 * {@code -Dbench.warmUp=30s}, {@code -Dbench.connections=16,64} and {@code -Dbench.rounds=3} change the
 * warm-up, the connection counts and the rounds of each; {@code -Dbench.whoIs=false} leaves out the
 * who-is latency; {@code -Dbench.devLater=true} makes mesh mode dev answer who-is one event-loop turn
 * later, which parts the cost of waiting for a caller at all from that of asking the daemon. {@code -Dbench.jfr=DIR} records one more 10 s run (or {@code -Dbench.recordFor=40s}) of each mode at 64 connections with Java Flight
 * Recorder's profiling settings, into {@code DIR/dev.jfr} and {@code DIR/admission.jfr}, and the fake daemon's whole run into
 * {@code DIR/daemon.jfr}
 * ({@code jfr print --events jdk.ExecutionSample} reads them). {@code -Dbench.perfStat=true} counts the
 * system calls and context switches per request of the server and of the fake with {@code perf stat}
 * during each wrk run: counts, steadier than times on a shared machine ({@code
 * -Dbench.perfEvents=syscalls:sys_enter_read,syscalls:sys_enter_write,...} counts other events).
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
      if (!"false".equals(System.getProperty("bench.whoIs"))) {
        whoIsLatency(vertx, socket);
      }
      throughput(socket, daemon);
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
    List<String> command = new ArrayList<>();
    String cpus = System.getProperty("bench.daemonCpus", "");
    if (!cpus.isEmpty()) {
      command.addAll(List.of("taskset", "-c", cpus));
      System.out.println("the fake daemon runs on CPUs " + cpus);
    }
    command.add(java.toString());
    String noNative = System.getProperty("io.netty.transport.noNative", "");
    if (!noNative.isEmpty()) {
      command.add("-Dio.netty.transport.noNative=" + noNative); // the daemon's transport as the server's
    }
    String jfr = System.getProperty("bench.jfr", "");
    if (!jfr.isEmpty()) {
      Files.createDirectories(Path.of(jfr));
      command.add("-XX:StartFlightRecording=settings=profile,dumponexit=true,filename="
          + Path.of(jfr, "daemon.jfr").toAbsolutePath());
    }
    command.addAll(List.of("-cp", System.getProperty("java.class.path"),
        FakeTailscaledMain.class.getName(), socket.toString(), PEER, "ann@corp.example",
        "{\"svc.dev/cap/svc\":[{\"role\":\"view\",\"period\":\"1h\"}]}"));
    Process daemon = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    BufferedReader lines = new BufferedReader(new InputStreamReader(daemon.getInputStream(), StandardCharsets.UTF_8));
    String line = lines.readLine();
    while (line != null && line.startsWith("[") && !FakeTailscaledMain.READY.equals(line)) {
      line = lines.readLine(); // the JVM's own log lines, such as a flight recording's start
    }
    if (!FakeTailscaledMain.READY.equals(line)) {
      daemon.destroy();
      throw new IllegalStateException("the fake daemon didn't start: " + line);
    }
    return daemon;
  }

  /**
   * Who-is calls as the API makes them, from an event loop, {@code inFlight} at a time: each call's
   * latency, and the CPU per call of this JVM and of its event loops (the fake runs elsewhere, so
   * this is the server's side of a who-is; the process figure adds GC and JIT).
   */
  private static void whoIsLatency(Vertx vertx, Path socket) {
    LocalApiClient client = new LocalApiClient(vertx, socket, new ObjectMapper(), Clock.systemUTC());
    Context loop = vertx.getOrCreateContext();
    try {
      for (int inFlight : new int[] {1, 16}) {
        int[] port = {0};
        Supplier<Future<?>> whoIs = () -> client.whoIs("127.0.0.1:" + (20000 + port[0]++ % 1000));
        WhoIsPathBench.calls(loop, whoIs, 5000, inFlight); // warm-up
        long cpu = serverCpuNanos();
        long loopCpu = WhoIsPathBench.eventLoopCpuNanos();
        long[] nanos = WhoIsPathBench.calls(loop, whoIs, 20000, inFlight);
        loopCpu = WhoIsPathBench.eventLoopCpuNanos() - loopCpu;
        cpu = serverCpuNanos() - cpu;
        Arrays.sort(nanos);
        System.out.printf("who-is against the fake, %d in flight: p50 %.3f ms, p99 %.3f ms (%d calls); server CPU"
            + " per who-is %.1f us, of it on event loops %.1f us%n", inFlight, nanos[nanos.length / 2] / 1e6,
            nanos[nanos.length * 99 / 100] / 1e6, nanos.length, cpu / 1e3 / nanos.length, loopCpu / 1e3 / nanos.length);
      }
    } finally {
      await(client.close());
    }
  }

  private static void throughput(Path socket, Process daemon) throws Exception {
    Map<ConfigKey, String> policies = Map.of(ConfigKey.POLICIES_DIR, "../conf/policies",
        ConfigKey.POLICIES_INSTALL, "[\"access.main\"]", ConfigKey.POLICIES_RELOAD, "false");
    // Fixed ports, as svc serve has: on port 0 the API listens on one event loop, not one per processor.
    Map<ConfigKey, String> devKeys = new java.util.HashMap<>(policies);
    devKeys.put(ConfigKey.MESH_PORT, String.valueOf(freePort()));
    SvcConfig dev = TestServers.config(devKeys);
    Map<ConfigKey, String> external = new java.util.HashMap<>(policies);
    external.put(ConfigKey.MESH_PORT, String.valueOf(freePort()));
    external.put(ConfigKey.MESH_MODE, "external");
    external.put(ConfigKey.MESH_SOCKET, socket.toString());
    SvcConfig tailnet = TestServers.config(external);
    BiFunction<Vertx, MeterRegistry, Mesh> devMesh = SvcServer.mesh(dev.mesh(), new NodeLogin("", false), Map.of());
    if (Boolean.getBoolean("bench.devLater")) {
      System.out.println("mesh mode dev answers who-is one event-loop turn later");
      BiFunction<Vertx, MeterRegistry, Mesh> now = devMesh;
      devMesh = (vertx, registry) -> new LaterMesh(now.apply(vertx, registry));
    }
    SvcServer devServer = await(SvcServer.create(dev, devMesh,
        registry -> SupervisedEngines.start(dev.engine(), registry)).start());
    SvcServer meshServer = await(SvcServer.create(tailnet, SvcServer.mesh(tailnet.mesh(), new NodeLogin("", false),
        Map.of()), registry -> SupervisedEngines.start(tailnet.engine(), registry)).start());
    Path script = Files.createTempFile("eval", ".lua");
    Files.writeString(script, "wrk.method = \"POST\"\nwrk.headers[\"Content-Type\"] = \"application/json\"\n"
        + "wrk.body = '" + BODY + "'\n");
    try {
      // Long warm-ups: on 2 shared cores the JIT still compiles the hot paths after 10 s of load.
      String warmUp = System.getProperty("bench.warmUp", "30s");
      wrk(devServer.apiPort(), script, warmUp, 16, daemon);
      wrk(meshServer.apiPort(), script, warmUp, 16, daemon);
      for (String each : System.getProperty("bench.connections", "16,64").split(",")) {
        int connections = Integer.parseInt(each.trim());
        List<Load> devLoads = new ArrayList<>();
        List<Load> meshLoads = new ArrayList<>();
        for (int round = 0; round < Integer.getInteger("bench.rounds", 3); round++) {
          devLoads.add(wrk(devServer.apiPort(), script, "10s", connections, daemon));
          meshLoads.add(wrk(meshServer.apiPort(), script, "10s", connections, daemon));
        }
        report(connections, Load.mean(devLoads), Load.mean(meshLoads));
      }
      String jfr = System.getProperty("bench.jfr", "");
      if (!jfr.isEmpty()) {
        String recordFor = System.getProperty("bench.recordFor", "10s");
        recorded(Path.of(jfr, "dev.jfr"), recordFor, () -> wrk(devServer.apiPort(), script, recordFor, 64, daemon));
        recorded(Path.of(jfr, "admission.jfr"), recordFor,
            () -> wrk(meshServer.apiPort(), script, recordFor, 64, daemon));
      }
    } finally {
      await(devServer.stop());
      await(meshServer.stop());
    }
  }

  /**
   * A mesh that answers who-is as {@code now} does, one event-loop turn later: the request waits for
   * its caller as it does for a daemon's answer, without the I/O, which tells the cost of waiting at
   * all (the request paused and resumed, its handlers continued from another task) apart from the
   * cost of asking tailscaled.
   */
  private record LaterMesh(Mesh now) implements Mesh {
    @Override
    public Future<List<HttpServerOptions>> listenOptions(HttpServerOptions base) {
      return now.listenOptions(base);
    }

    @Override
    public String url(int port) {
      return now.url(port);
    }

    @Override
    public String dnsName() {
      return now.dnsName();
    }

    @Override
    public Future<Caller> whoIs(SocketAddress peer) {
      Promise<Caller> later = Promise.promise();
      Vertx.currentContext().runOnContext(v -> now.whoIs(peer).onComplete(later));
      return later.future();
    }

    @Override
    public MeshStatus status() {
      return now.status();
    }

    @Override
    public Future<Void> close() {
      return now.close();
    }
  }

  /** A wrk run that may throw. */
  private interface Run {
    Load run() throws IOException, InterruptedException;
  }

  /**
   * {@code run}, which lasts {@code duration} (such as {@code 10s}), under a flight recording with the
   * profiling settings, dumped to {@code file}, and,
   * with {@code -Dbench.perf=true}, under {@code perf record} of this JVM too ({@code file} with
   * {@code .perf} for {@code .jfr}; {@code jcmd Compiler.perfmap} writes the JIT's symbols for
   * {@code perf report} to {@code /tmp/perf-PID.map}).
   */
  private static void recorded(Path file, String duration, Run run) throws Exception {
    Files.createDirectories(file.getParent());
    long pid = ProcessHandle.current().pid();
    Process perf = null;
    if (Boolean.getBoolean("bench.perf")) {
      perf = new ProcessBuilder("perf", "record", "-F", "997", "-p", String.valueOf(pid), "-o",
          file.toString().replace(".jfr", ".perf"), "--", "sleep", duration).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }
    try (Recording recording = new Recording(Configuration.getConfiguration("profile"))) {
      recording.start();
      run.run();
      recording.stop();
      recording.dump(file);
    }
    if (perf != null) {
      perf.waitFor();
      new ProcessBuilder("jcmd", String.valueOf(pid), "Compiler.perfmap").redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    }
    System.out.println("flight recording: " + file);
  }

  /**
   * What one wrk run measured: requests per second, and the CPU time per request of this JVM (the
   * server under load; the other one idles) and of the fake daemon's process, with the server's
   * share spent in the kernel (system calls: socket reads and writes, wake-ups).
   */
  private record Load(double rate, double serverMicros, double serverKernelMicros, double daemonMicros,
      Counts server, Counts daemon) {
    static Load mean(List<Load> loads) {
      return new Load(loads.stream().mapToDouble(Load::rate).average().orElseThrow(),
          loads.stream().mapToDouble(Load::serverMicros).average().orElseThrow(),
          loads.stream().mapToDouble(Load::serverKernelMicros).average().orElseThrow(),
          loads.stream().mapToDouble(Load::daemonMicros).average().orElseThrow(),
          Counts.mean(loads.stream().map(Load::server).toList()),
          Counts.mean(loads.stream().map(Load::daemon).toList()));
    }
  }

  /**
   * Events per request of one process, such as system calls and context switches, as {@code perf stat}
   * counted them ({@code -Dbench.perfStat=true}); counts, unlike times, hardly change with what else
   * runs on the machine. Empty without it.
   */
  private record Counts(Map<String, Double> perRequest) {
    static Counts mean(List<Counts> counts) {
      Map<String, Double> sums = new java.util.LinkedHashMap<>();
      counts.forEach(c -> c.perRequest().forEach((event, n) -> sums.merge(event, n / counts.size(), Double::sum)));
      return new Counts(sums);
    }

    Counts per(double requests) {
      Map<String, Double> each = new java.util.LinkedHashMap<>();
      perRequest.forEach((event, n) -> each.put(event, n / requests));
      return new Counts(each);
    }

    @Override
    public String toString() {
      StringBuilder text = new StringBuilder();
      perRequest.forEach((event, n) -> text.append(text.isEmpty() ? "" : ", ").append(event)
          .append(String.format(" %.2f", n)));
      return text.toString();
    }
  }

  /**
   * The throughput cost, and where the CPU goes: on 2 shared cores the daemon's CPU competes with
   * the server's, so the server's own added CPU per request is printed apart from the daemon's.
   */
  private static void report(int connections, Load dev, Load mesh) {
    System.out.printf("wrk -c %d: eval req/s, mesh mode dev: mean %.0f; admission through the fake tailscaled:"
        + " mean %.0f%n", connections, dev.rate(), mesh.rate());
    System.out.printf("wrk -c %d: admission cost: %.1f %% of dev throughput%n", connections,
        100 * (1 - mesh.rate() / dev.rate()));
    System.out.printf("wrk -c %d: CPU per request: server %.1f us (dev %.1f us, +%.1f %%), fake daemon %.1f us%n",
        connections, mesh.serverMicros(), dev.serverMicros(), 100 * (mesh.serverMicros() / dev.serverMicros() - 1),
        mesh.daemonMicros());
    System.out.printf("wrk -c %d: server CPU per request in the kernel: %.1f us (dev %.1f us)%n", connections,
        mesh.serverKernelMicros(), dev.serverKernelMicros());
    if (System.getProperty("bench.daemonCpus", "").isEmpty()) {
      // All the CPU a dev request takes on this machine (server, wrk, kernel): what the fake's CPU,
      // taken from the same cores, competes with even if admission cost the server nothing.
      double devMicros = Runtime.getRuntime().availableProcessors() * 1e6 / dev.rate();
      System.out.printf("wrk -c %d: the fake's CPU alone, on the server's cores: %.1f %% of dev throughput"
          + " (%.1f us of the %.1f us all the machine's cores give a dev request)%n", connections,
          100 * mesh.daemonMicros() / (devMicros + mesh.daemonMicros()), mesh.daemonMicros(), devMicros);
    }
    if (!mesh.server().perRequest().isEmpty()) {
      System.out.printf("wrk -c %d: per request, server: %s%nwrk -c %d: per request, server in dev: %s%n"
          + "wrk -c %d: per request, fake daemon: %s%n", connections, mesh.server(), connections, dev.server(),
          connections, mesh.daemon());
    }
  }

  /** One wrk run of {@code connections} connections on the eval route. */
  private static Load wrk(int port, Path script, String duration, int connections, Process daemon)
      throws IOException, InterruptedException {
    long serverCpu = serverCpuNanos();
    long serverKernel = kernelNanos();
    long daemonCpu = cpuNanos(daemon);
    boolean counting = Boolean.getBoolean("bench.perfStat");
    Process serverCounts = counting ? perfStat(ProcessHandle.current().pid()) : null;
    Process daemonCounts = counting ? perfStat(daemon.pid()) : null;
    Process wrk = new ProcessBuilder("wrk", "-t", "1", "-c", String.valueOf(connections), "-d", duration, "--latency",
        "-s", script.toString(), "http://127.0.0.1:" + port + "/api/v1/policies/access.main/eval")
        .redirectErrorStream(true).start();
    String output = new String(wrk.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    wrk.waitFor();
    Counts server = counted(serverCounts);
    Counts daemonCounted = counted(daemonCounts);
    serverCpu = serverCpuNanos() - serverCpu;
    serverKernel = kernelNanos() - serverKernel;
    daemonCpu = cpuNanos(daemon) - daemonCpu;
    List<String> figures = output.lines().filter(l -> l.contains("Requests/sec") || l.contains("50%")
        || l.contains("99%") || l.contains("Non-2xx") || l.contains("Socket errors")).toList();
    System.out.println("wrk -c " + connections + " :" + port + " " + (figures.isEmpty() ? output : figures));
    double requests = output.lines().filter(l -> l.contains(" requests in ")).findFirst()
        .map(l -> Double.parseDouble(l.trim().split(" ")[0])).orElse(0.0);
    double rate = output.lines().filter(l -> l.startsWith("Requests/sec:")).findFirst()
        .map(l -> Double.parseDouble(l.substring("Requests/sec:".length()).trim())).orElse(0.0);
    return new Load(rate, serverCpu / 1e3 / requests, serverKernel / 1e3 / requests, daemonCpu / 1e3 / requests,
        server.per(requests), daemonCounted.per(requests));
  }

  /**
   * {@code perf stat} counting the events of {@code -Dbench.perfEvents} (by default system calls and
   * context switches) of {@code pid} until stopped.
   */
  private static Process perfStat(long pid) throws IOException {
    return new ProcessBuilder("perf", "stat", "-x", ",", "-e",
        System.getProperty("bench.perfEvents", "raw_syscalls:sys_enter,context-switches"), "-p",
        String.valueOf(pid)).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
  }

  /** What {@code perf} counted, once stopped (SIGINT makes it print); empty without it. */
  private static Counts counted(Process perf) throws IOException, InterruptedException {
    Map<String, Double> counts = new java.util.LinkedHashMap<>();
    if (perf == null) {
      return new Counts(counts);
    }
    new ProcessBuilder("kill", "-INT", String.valueOf(perf.pid())).start().waitFor();
    String output = new String(perf.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    perf.waitFor();
    for (String line : output.lines().toList()) {
      String[] fields = line.split(",");
      if (fields.length > 2 && fields[0].matches("[0-9.]+")) {
        counts.put(fields[2].replace("syscalls:sys_enter_", "").replace("raw_syscalls:sys_enter", "syscalls"),
            Double.parseDouble(fields[0]));
      }
    }
    return new Counts(counts);
  }

  private static int freePort() throws IOException {
    try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
      return probe.getLocalPort();
    }
  }

  private static long serverCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /**
   * This process's CPU time in the kernel: field 15 ({@code stime}) of {@code /proc/self/stat}, in
   * clock ticks of 10 ms (Linux's {@code USER_HZ}); 0 elsewhere.
   */
  private static long kernelNanos() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      // The command name, field 2, may hold spaces: count fields after its closing parenthesis.
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(fields[12]) * 10_000_000L;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  private static long cpuNanos(Process process) {
    return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
  }
}
