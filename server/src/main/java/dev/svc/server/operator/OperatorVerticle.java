package dev.svc.server.operator;

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

/**
 * Hosts the operator in the server (access-server spec §1.3 step 6): it runs for the Lease
 * {@value LeaseSettings#LEASE_NAME} with fabric8's leader elector and runs a {@link SigninController}
 * only while this replica leads, so a rolling update never has two reconcilers. Losing the Lease stops
 * the controller; winning it again starts a fresh one. Nothing here runs on the event loop: the elector
 * and the controller have their own threads.
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
  private volatile CompletableFuture<?> election;
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
    election = client.leaderElector()
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
    // An election that ends (its API failing, say) settles the start too, rather than hold it forever.
    election.whenComplete((result, failure) -> settled.complete(null));
    LOG.log(Level.INFO, "operator running for the Lease " + LeaseSettings.LEASE_NAME + " in namespace "
        + lease.namespace() + " as " + lease.identity());
    return Future.fromCompletionStage(settled, context);
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
    try {
      started.start();
      metrics.leading(true);
    } catch (RuntimeException e) {
      LOG.log(Level.ERROR, "the operator can't start: " + e.getMessage());
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

  /** Gives the Lease up and stops the controller; reconciles in flight finish first. */
  @Override
  public Future<?> stop() {
    settled.complete(null);
    return vertx.executeBlocking(() -> {
      CompletableFuture<?> running = election;
      if (running != null) {
        running.cancel(true); // releases the Lease (releaseOnCancel) and calls follow()
      }
      lifecycle.submit(this::follow).get();
      lifecycle.shutdown();
      timers.shutdownNow();
      return null;
    });
  }
}
