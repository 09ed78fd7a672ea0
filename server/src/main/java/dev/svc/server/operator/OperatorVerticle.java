package dev.svc.server.operator;

import dev.svc.server.health.Liveness;
import dev.svc.server.health.Readiness;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.api.trace.Tracer;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Hosts the operator in the server (access-server spec §1.3 step 6): it runs for the Lease
 * {@value LeaseSettings#LEASE_NAME} with fabric8's leader elector and runs a {@link SigninController}
 * only while this replica leads, so a rolling update never has two reconcilers. Losing the Lease stops
 * the controller, and the replica runs for it again; winning it again starts a fresh one. A controller
 * that can't start is a fatal failure: {@link #liveness()} says so, and {@code /healthz} answers 503 so
 * the kubelet restarts the pod. Nothing here runs on the event loop: the elector and the controller
 * have their own threads.
 *
 * <p>{@link #readiness()} answers {@code operator not started} until the controller's caches have
 * synced, and says so when another replica leads.
 *
 * <p><b>Thread safety:</b> a verticle; {@link #readiness()} and {@link #leading()} may be called from any
 * thread.
 */
public final class OperatorVerticle extends VerticleBase {

  private static final Logger LOG = System.getLogger(OperatorVerticle.class.getName());

  private final KubernetesClient client;
  private final OperatorSettings settings;
  private final LeaseSettings lease;
  private final Clock clock;
  private final OperatorMetrics metrics;
  private final Tracer tracer;
  private final ScheduledExecutorService timers;
  private final ExecutorService lifecycle;
  private volatile SigninController controller;
  private volatile String leader = "";
  // Both only set and read on the lifecycle thread, so a stop can't miss an election that starts.
  private CompletableFuture<?> election;
  private boolean stopping;
  private volatile Liveness liveness = Liveness.ALIVE;
  // Completes once this replica leads with synced caches, or has seen another replica hold the Lease:
  // the API then starts with the operator's part of /ready settled (spec §1.3 step 6).
  private final CompletableFuture<Void> settled = new CompletableFuture<>();

  /**
   * The operator for {@code settings}, electing its leader with {@code lease}.
   *
   * @param client the Kubernetes API
   * @param settings namespace, allowed roles, workers and periods
   * @param lease the Lease and its periods
   * @param registry where the operator's meters go
   * @param tracer makes the reconcile spans
   */
  public OperatorVerticle(KubernetesClient client, OperatorSettings settings, LeaseSettings lease,
      PrometheusMeterRegistry registry, Tracer tracer) {
    this.client = client;
    this.settings = settings;
    this.lease = lease;
    this.clock = Clock.systemUTC();
    this.metrics = new OperatorMetrics(registry, settings.namespace(), clock);
    this.tracer = tracer;
    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, daemon("svc-operator-timer"));
    // Requeues replaced by earlier ones are cancelled by the thousand; don't keep them until they'd be due.
    executor.setRemoveOnCancelPolicy(true);
    this.timers = executor;
    this.lifecycle = Executors.newSingleThreadExecutor(daemon("svc-operator-lifecycle"));
  }

  private static ThreadFactory daemon(String name) {
    return task -> {
      Thread thread = new Thread(task, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  @Override
  public Future<?> start() {
    lifecycle.execute(this::elect);
    LOG.log(Level.INFO, "operator running for the Lease " + LeaseSettings.LEASE_NAME + " in namespace "
        + lease.namespace() + " as " + lease.identity());
    return Future.fromCompletionStage(settled, context);
  }

  // On the lifecycle thread. fabric8's elector runs one election: it ends when this replica loses the
  // Lease (no renewal within the deadline, the API away) or can't reach the API at all.
  private void elect() {
    if (stopping) {
      return;
    }
    CompletableFuture<?> running = client.leaderElector()
        .withConfig(new LeaderElectionConfigBuilder()
            .withName(LeaseSettings.LEASE_NAME)
            .withLock(new LeaseLock(lease.namespace(), LeaseSettings.LEASE_NAME, lease.identity()))
            .withLeaseDuration(lease.leaseDuration())
            .withRenewDeadline(lease.renewDeadline())
            .withRetryPeriod(lease.retryPeriod())
            .withReleaseOnCancel(true)
            .withLeaderCallbacks(new LeaderCallbacks(
                () -> lifecycle.execute(this::lead),
                () -> lifecycle.execute(this::follow),
                this::observe))
            .build())
        .build()
        .start();
    election = running;
    running.whenComplete((result, failure) -> lifecycle.execute(() -> ended(running, failure)));
  }

  // On the lifecycle thread. An election that ended settles the start too, rather than hold it
  // forever; unless the server stops, the replica runs again after the retry period, since one that
  // stayed out would never reconcile again while its process looked healthy.
  private void ended(CompletableFuture<?> running, Throwable failure) {
    settled.complete(null);
    if (stopping || running != election) {
      return;
    }
    LOG.log(Level.WARNING, "the election for the Lease " + LeaseSettings.LEASE_NAME + " ended"
        + (failure == null ? "" : " (" + failure.getMessage() + ")") + "; running for it again in "
        + lease.retryPeriod().toMillis() + " ms");
    timers.schedule(() -> lifecycle.execute(this::elect), lease.retryPeriod().toMillis(), TimeUnit.MILLISECONDS);
  }

  private void observe(String holder) {
    leader = holder;
    if (!holder.equals(lease.identity())) {
      settled.complete(null);
    }
  }

  // On the lifecycle thread: starting blocks until the caches sync.
  private void lead() {
    SigninController started = new SigninController(client, settings, clock, Scheduler.of(timers, clock), metrics,
        tracer);
    controller = started;
    // The gauge says this replica holds the Lease; set before the caches sync, so it reads 1 by the
    // time leading() is true.
    metrics.leading(true);
    try {
      started.start();
    } catch (RuntimeException e) {
      liveness = new Liveness(false, "the operator can't start: " + e.getMessage());
      LOG.log(Level.ERROR, liveness.reason() + "; /healthz answers 503 until the server restarts");
    } finally {
      settled.complete(null);
    }
  }

  private void follow() {
    metrics.leading(false);
    SigninController stopping = controller;
    controller = null;
    if (stopping != null) {
      stopping.close();
      LOG.log(Level.INFO, "operator stopped: this replica no longer holds the Lease " + LeaseSettings.LEASE_NAME);
    }
  }

  /**
   * Whether this replica leads and reconciles.
   *
   * @return true while its controller runs
   */
  public boolean leading() {
    SigninController running = controller;
    return running != null && running.synced();
  }

  /**
   * The operator's part of {@code /ready} (spec §9).
   *
   * @return ready while this replica leads with synced caches; else why not
   */
  public Readiness readiness() {
    if (leading()) {
      return new Readiness(true, "operator reconciling");
    }
    String holder = leader;
    if (controller == null && !holder.isEmpty() && !holder.equals(lease.identity())) {
      return new Readiness(false, "operator standing by: " + holder + " holds the Lease " + LeaseSettings.LEASE_NAME);
    }
    return new Readiness(false, "operator not started");
  }

  /**
   * The operator's part of {@code /healthz} (spec §9).
   *
   * @return alive unless its controller failed to start, which a restart of the server may mend
   */
  public Liveness liveness() {
    return liveness;
  }

  /** Gives the Lease up and stops the controller; reconciles in flight finish first. */
  @Override
  public Future<?> stop() {
    settled.complete(null);
    return vertx.executeBlocking(() -> {
      lifecycle.submit(() -> {
        stopping = true;
        if (election != null) {
          election.cancel(true); // releases the Lease (releaseOnCancel) and calls follow()
        }
        follow();
      }).get();
      lifecycle.shutdown();
      timers.shutdownNow();
      return null;
    });
  }
}
