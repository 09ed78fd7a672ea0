package dev.svc.bench;

import dev.svc.server.kube.Rfc3339;
import dev.svc.server.kube.SigninName;
import dev.svc.server.kube.SvcSignin;
import dev.svc.server.kube.SvcSigninSpec;
import dev.svc.server.kube.SvcSigninStatus;
import dev.svc.server.operator.OperatorMetrics;
import dev.svc.server.operator.OperatorSettings;
import dev.svc.server.operator.Scheduler;
import dev.svc.server.operator.SigninController;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The operator's two goals (issue #18), measured on fabric8's CRUD mock API server in this JVM:
 *
 * <ol>
 *   <li>provisioning rate: 1,000 pending sign-ins exist when the operator starts; time until all are
 *       provisioned (goal: at least 200 per second);
 *   <li>heap per live sign-in: 10,000 provisioned sign-ins (with their ServiceAccounts and bindings) in
 *       the operator's caches; the heap with the operator running and idle minus the heap before it
 *       started (the mock's own store is in both), each after a full GC, divided by 10,000 (goal: at
 *       most 2 KiB).
 * </ol>
 *
 * <p>Run: {@code java -cp bench/target/classes:<runtime classpath> dev.svc.bench.OperatorBench [conf dir
 * [pending sign-ins [live sign-ins]]]}.
 * Not a JMH benchmark: each measure is one long run, repeated by running it again.
 */
public final class OperatorBench {

  private static final String NAMESPACE = "svc-dev";
  // Held so the level sticks: the mock logs every request.
  private static final Logger MOCK_LOG = Logger.getLogger("io.fabric8.mockwebserver");

  private OperatorBench() {}

  public static void main(String[] args) throws Exception {
    MOCK_LOG.setLevel(Level.WARNING);
    Path conf = Path.of(args.length > 0 ? args[0] : "conf");
    provisioning(conf, args.length > 1 ? Integer.parseInt(args[1]) : 1_000);
    heap(conf, args.length > 2 ? Integer.parseInt(args[2]) : 10_000);
    System.exit(0);
  }

  private static KubernetesMockServer mock(Path conf) throws Exception {
    KubernetesMockServer server = new KubernetesMockServer(new io.fabric8.mockwebserver.Context(),
        new io.fabric8.mockwebserver.MockWebServer(), new java.util.HashMap<>(),
        new io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher(), false);
    server.init();
    try (InputStream in = Files.newInputStream(conf.resolve("kubernetes/crd-svcsignins.yaml"));
        KubernetesClient client = server.createClient()) {
      client.apiextensions().v1().customResourceDefinitions()
          .resource(Serialization.unmarshal(in, CustomResourceDefinition.class)).create();
    }
    return server;
  }

  private static void provisioning(Path conf, int count) throws Exception {
    KubernetesMockServer server = mock(conf);
    try (KubernetesClient client = server.createClient()) {
      Instant now = Instant.now();
      long writing = System.nanoTime();
      parallel(count, i -> client.resources(SvcSignin.class).inNamespace(NAMESPACE).resource(pending(i, now)).create());
      System.out.printf("mock API baseline: %d creates from 8 threads in %.2f s: %.0f requests/s%n", count,
          (System.nanoTime() - writing) / 1e9, count / ((System.nanoTime() - writing) / 1e9));
      ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
      PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      SigninController controller = controller(client, timers, registry);
      long started = System.nanoTime();
      controller.start();
      long synced = System.nanoTime();
      while (registry.find("svc.user.signins").counters().stream().mapToDouble(c -> c.count()).sum() < count) {
        Thread.sleep(50);
      }
      long done = System.nanoTime();
      double seconds = (done - started) / 1e9;
      System.out.printf("provisioning: %d pending sign-ins provisioned in %.2f s from start (caches synced after"
              + " %.2f s): %.0f sign-ins/s (goal >= 200/s)%n", count, seconds, (synced - started) / 1e9, count / seconds);
      controller.close();
      timers.shutdownNow();
    } finally {
      server.destroy();
    }
  }

  private static void heap(Path conf, int count) throws Exception {
    KubernetesMockServer server = mock(conf);
    try (KubernetesClient client = server.createClient()) {
      Instant now = Instant.now();
      Instant until = now.plus(Duration.ofHours(8));
      parallel(count, i -> {
        SvcSignin created = client.resources(SvcSignin.class).inNamespace(NAMESPACE).resource(pending(i, now)).create();
        created.setStatus(new SvcSigninStatus(true, Rfc3339.format(now), Rfc3339.format(until)));
        client.resources(SvcSignin.class).inNamespace(NAMESPACE).resource(created).updateStatus();
        return null;
      });
      long before = usedAfterGc();
      ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
      PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      SigninController controller = controller(client, timers, registry);
      controller.start();
      // Every sign-in gets its ServiceAccount and binding made (the caches of all three kinds fill).
      while (client.rbac().clusterRoleBindings().list().getItems().size() < count || !controller.idle()) {
        Thread.sleep(200);
      }
      long running = usedAfterGc();
      System.out.printf("heap: %d live sign-ins; before the operator started %,d B, with it running and synced"
          + " %,d B: %,d B per live sign-in (goal <= 2048 B)%n", count, before, running, (running - before) / count);
      controller.close();
      registry.close();
      timers.shutdownNow();
    } finally {
      server.destroy();
    }
  }

  private static SigninController controller(KubernetesClient client, ScheduledExecutorService timers,
      PrometheusMeterRegistry registry) {
    Clock clock = Clock.systemUTC();
    return new SigninController(client, OperatorSettings.of(NAMESPACE, Set.of()), clock, Scheduler.of(timers, clock),
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
    ExecutorService pool = Executors.newFixedThreadPool(8);
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

  private static long usedAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
