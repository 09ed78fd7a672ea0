package dev.svc.bench;

import dev.svc.server.kube.SigninName;
import dev.svc.server.kube.SvcSignin;
import dev.svc.server.kube.SvcSigninSpec;
import dev.svc.server.operator.OperatorMetrics;
import dev.svc.server.operator.OperatorSettings;
import dev.svc.server.operator.Scheduler;
import dev.svc.server.operator.SigninController;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.ObjectName;

/**
 * The operator's two goals (issue #18), measured in this JVM against an in-process API:
 *
 * <ol>
 *   <li>provisioning rate: 1,000 pending sign-ins exist when the operator starts; time until all are
 *       provisioned (goal: at least 200 per second). Measured on fabric8's CRUD mock API server as it
 *       ships, and again on {@link IndexedCrudDispatcher}, the same mock with an index: the stock mock
 *       scans every stored object on every request, so it sets the pace. Each run also splits the CPU
 *       time spent between the mock's threads and everything else (the operator, its client, the
 *       informers): what the operator itself costs per sign-in.
 *   <li>heap per live sign-in: 10,000 sign-ins provisioned by the operator (so its caches hold them, their
 *       ServiceAccounts and bindings, and its queue and meters know them); the heap with the operator
 *       running and idle minus the heap once it is closed and dropped, each after a full GC, with the
 *       mock's store the same in both and its log of requests emptied, divided by 10,000 (goal: at most
 *       2 KiB).
 * </ol>
 *
 * <p>Run from the repository root, after {@code mvn -q -o -pl bench -am package -DskipTests} and
 * {@code mvn -q -o -pl bench dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * -Dmdep.includeScope=runtime}: {@code java -cp "bench/target/classes:$(cat bench/target/cp.txt)"
 * dev.svc.bench.OperatorBench [conf dir [pending sign-ins [live sign-ins [mocks [workers]]]]]}; 0 skips a
 * measure; mocks is {@code stock}, {@code indexed} or {@code both} (the default), the APIs the provisioning
 * rate is measured on; workers is the operator's number of workers ({@link OperatorSettings#WORKERS} by
 * default).
 * Not a JMH benchmark: each measure is one long run, repeated by running it again.
 */
public final class OperatorBench {

  private static final String NAMESPACE = "svc-dev";
  // Held so the level sticks: the mock logs every request.
  private static final Logger MOCK_LOG = Logger.getLogger("io.fabric8.mockwebserver");
  // The mock server's threads are its own Vert.x instance's; the operator's client has none.
  private static final String MOCK_THREADS = "vert.x-";
  // The benchmark's own threads: main (waiting) and those writing the sign-ins.
  private static final String BENCH_THREADS = "bench-";
  private static final String OPERATOR_THREADS = "operator";

  private OperatorBench() {}

  public static void main(String[] args) throws Exception {
    MOCK_LOG.setLevel(Level.SEVERE);
    Path conf = Path.of(args.length > 0 ? args[0] : "conf");
    int pending = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
    int live = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
    String mocks = args.length > 3 ? args[3] : "both";
    int workers = args.length > 4 ? Integer.parseInt(args[4]) : OperatorSettings.WORKERS;
    if (pending > 0 && !mocks.equals("indexed")) {
      provisioning("stock CRUD mock", conf, new KubernetesCrudDispatcher(), pending, workers);
    }
    if (pending > 0 && !mocks.equals("stock")) {
      provisioning("indexed CRUD mock", conf, new IndexedCrudDispatcher(), pending, workers);
    }
    if (live > 0) {
      heap(conf, live, workers);
    }
    System.exit(0);
  }

  private static KubernetesMockServer mock(Path conf, KubernetesCrudDispatcher dispatcher) throws Exception {
    KubernetesMockServer server = new KubernetesMockServer(new io.fabric8.mockwebserver.Context(),
        new io.fabric8.mockwebserver.MockWebServer(), new java.util.HashMap<>(), dispatcher, false);
    server.init();
    try (InputStream in = Files.newInputStream(conf.resolve("kubernetes/crd-svcsignins.yaml"));
        KubernetesClient client = server.createClient()) {
      client.apiextensions().v1().customResourceDefinitions()
          .resource(Serialization.unmarshal(in, CustomResourceDefinition.class)).create();
    }
    return server;
  }

  private static void provisioning(String api, Path conf, KubernetesCrudDispatcher dispatcher, int count,
      int workers) throws Exception {
    KubernetesMockServer server = mock(conf, dispatcher);
    try (KubernetesClient client = server.createClient()) {
      Instant now = Instant.now();
      long writing = System.nanoTime();
      parallel(count, i -> client.resources(SvcSignin.class).inNamespace(NAMESPACE).resource(pending(i, now)).create());
      double wrote = (System.nanoTime() - writing) / 1e9;
      System.out.printf("%s: %d creates from 8 threads in %.2f s: %.0f requests/s%n", api, count, wrote, count / wrote);
      ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
      PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      SigninController controller = controller(client, timers, registry, workers);
      drain(server);
      Map<String, Long> cpuBefore = cpuByThread();
      long started = System.nanoTime();
      controller.start();
      long synced = System.nanoTime();
      awaitProvisioned(registry, count);
      long done = System.nanoTime();
      Map<String, Long> cpu = cpuSince(cpuBefore);
      Map<String, Integer> requests = drain(server);
      double seconds = (done - started) / 1e9;
      System.out.printf("%s: %d pending sign-ins provisioned in %.2f s from start (caches synced after %.2f s):"
          + " %.0f sign-ins/s (goal >= 200/s)%n", api, count, seconds, (synced - started) / 1e9, count / seconds);
      long mock = cpu.getOrDefault(MOCK_THREADS, 0L);
      long operator = cpu.getOrDefault(OPERATOR_THREADS, 0L);
      // The mock answers every request on its one event-loop thread, so its CPU time per sign-in bounds the rate.
      System.out.printf("%s: %s requests to the API meanwhile (%.1f per sign-in); CPU: mock API threads %.2f s"
          + " (%.2f ms per sign-in, all on one event loop: at most %.0f sign-ins/s whatever the operator does),"
          + " operator + client + informers %.2f s (%.2f ms per sign-in: at most %.0f sign-ins/s per core)%n", api,
          requests, requests.values().stream().mapToInt(Integer::intValue).sum() / (double) count, mock / 1e9,
          mock / 1e6 / count, count / (mock / 1e9), operator / 1e9, operator / 1e6 / count, count / (operator / 1e9));
      controller.close();
      registry.close();
      timers.shutdownNow();
    } finally {
      server.destroy();
    }
  }

  private static void heap(Path conf, int count, int workers) throws Exception {
    KubernetesMockServer server = mock(conf, new IndexedCrudDispatcher());
    try (KubernetesClient client = server.createClient()) {
      Instant now = Instant.now();
      parallel(count, i -> client.resources(SvcSignin.class).inNamespace(NAMESPACE).resource(pending(i, now)).create());
      ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
      PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      SigninController controller = controller(client, timers, registry, workers);
      controller.start();
      awaitProvisioned(registry, count);
      while (!controller.idle()) {
        Thread.sleep(100);
      }
      long running = usedAfterGc(server);
      Map<String, Long> runningClasses = histogram();
      registry.clear();
      long withoutMeters = usedAfterGc(server);
      controller.close();
      registry.close();
      controller = null;
      registry = null;
      long stopped = usedAfterGc(server);
      Map<String, Long> stoppedClasses = histogram();
      System.out.printf("heap: %d live sign-ins; with the operator running and idle %,d B, once it is closed %,d B:"
          + " %,d B per live sign-in (goal <= 2048 B), of which Micrometer meters %,d B; per sign-in by class:%n", count, running,
          stopped, (running - stopped) / count, (running - withoutMeters) / count);
      runningClasses.entrySet().stream()
          .map(entry -> Map.entry(entry.getKey(), entry.getValue() - stoppedClasses.getOrDefault(entry.getKey(), 0L)))
          .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
          .limit(15)
          .forEach(entry -> System.out.printf("  %,6d B  %s%n", entry.getValue() / count, entry.getKey()));
      timers.shutdownNow();
    } finally {
      server.destroy();
    }
  }

  private static void awaitProvisioned(PrometheusMeterRegistry registry, int count) throws InterruptedException {
    while (provisioned(registry) < count) {
      Thread.sleep(100);
    }
  }

  /** The sum of {@code svc_user_signins_total} over its series: provisionings so far. */
  private static double provisioned(PrometheusMeterRegistry registry) {
    return registry.getPrometheusRegistry().scrape("svc_user_signins"::equals).stream()
        .flatMap(snapshot -> snapshot.getDataPoints().stream())
        .mapToDouble(point -> ((CounterSnapshot.CounterDataPointSnapshot) point).getValue())
        .sum();
  }

  private static SigninController controller(KubernetesClient client, ScheduledExecutorService timers,
      PrometheusMeterRegistry registry, int workers) {
    Clock clock = Clock.systemUTC();
    OperatorSettings settings = new OperatorSettings(NAMESPACE, Set.of(), workers, OperatorSettings.RESYNC_EVERY,
        OperatorSettings.SWEEP_EVERY, OperatorSettings.BACKOFF_BASE, OperatorSettings.BACKOFF_MAX);
    return new SigninController(client, settings, clock, Scheduler.of(timers, clock),
        new OperatorMetrics(registry, NAMESPACE, clock), OpenTelemetry.noop().getTracer("bench"));
  }

  private static SvcSignin pending(int i, Instant now) {
    String user = String.format("user%05d", i);
    return SvcSignin.of(SigninName.of(user).orElseThrow(), NAMESPACE,
        new SvcSigninSpec(user, "view", "8h0m0s", user + "@corp.example"), now, now.plus(Duration.ofHours(8)));
  }

  private interface Call {
    Object run(int i) throws Exception;
  }

  private static void parallel(int count, Call call) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8, task -> new Thread(task, BENCH_THREADS + "writer"));
    List<Future<Object>> results = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int index = i;
      results.add(pool.submit(() -> call.run(index)));
    }
    for (Future<Object> result : results) {
      result.get();
    }
    pool.shutdown();
  }

  /** CPU time so far per thread. */
  private static Map<String, Long> cpuByThread() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Map<String, Long> byThread = new HashMap<>();
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      long cpu = info == null ? -1 : threads.getThreadCpuTime(info.getThreadId());
      if (cpu >= 0) {
        byThread.put(info.getThreadId() + " " + info.getThreadName(), cpu);
      }
    }
    return byThread;
  }

  private static Map<String, Long> cpuSince(Map<String, Long> before) {
    Map<String, Long> groups = new HashMap<>();
    cpuByThread().forEach((thread, cpu) -> {
      String name = thread.substring(thread.indexOf(' ') + 1);
      String group = name.startsWith(MOCK_THREADS) ? MOCK_THREADS
          : name.startsWith(BENCH_THREADS) || name.equals("main") ? BENCH_THREADS : OPERATOR_THREADS;
      groups.merge(group, cpu - before.getOrDefault(thread, 0L), Long::sum);
    });
    return groups;
  }

  /** Bytes per class on the heap, as {@code jcmd GC.class_histogram} prints them (after a full GC). */
  private static Map<String, Long> histogram() throws Exception {
    String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
        new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
        new Object[] {new String[0]}, new String[] {String[].class.getName()});
    Map<String, Long> bytes = new HashMap<>();
    for (String line : text.split("\n")) {
      String[] columns = line.trim().split("\\s+");
      if (columns.length >= 4 && columns[0].endsWith(":") && !columns[0].equals("Total")) {
        bytes.put(columns[3], Long.parseLong(columns[2]));
      }
    }
    return bytes;
  }

  /** Empties the mock's log of requests (it keeps every one); answers how many there were by verb. */
  private static Map<String, Integer> drain(KubernetesMockServer server) throws InterruptedException {
    Map<String, Integer> byVerb = new TreeMap<>();
    for (RecordedRequest request = server.takeRequest(0, TimeUnit.MILLISECONDS); request != null;
        request = server.takeRequest(0, TimeUnit.MILLISECONDS)) {
      byVerb.merge(request.getMethod(), 1, Integer::sum);
    }
    return byVerb;
  }

  /** The heap in use after full collections, with the mock's log of requests emptied. */
  private static long usedAfterGc(KubernetesMockServer server) throws InterruptedException {
    drain(server);
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
