package dev.svc.server.operator;

import dev.svc.server.kube.Rfc3339;
import dev.svc.server.kube.SvcSignin;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The operator's meters (access-server spec §9), all named {@code svc_...} in Prometheus:
 *
 * <ul>
 *   <li>{@code svc_user_signins_total{cluster_role,username}}: each provisioning, extensions included, kept
 *       by a {@link SigninCounter} (a count per user rather than a Micrometer counter per user);
 *   <li>{@code svc_active_user_sessions{cluster_role}}: Active sign-ins, counted from the informer's
 *       cache on every scrape, so it never drifts (D19);
 *   <li>{@code svc_reconciler_duration_seconds{reconciler,name,namespace}}: each reconcile, kept by a
 *       {@link ReconcileTimer} (a few numbers per name rather than a Micrometer timer per name); a name's
 *       series goes once its sign-in is gone ({@link #forget}), so sign-ins coming and going never grow
 *       the registry;
 *   <li>{@code svc_reconciler_errors_total{reconciler}}: reconciles that failed and are retried;
 *   <li>{@code svc_reconciler_queue_depth}: names waiting for a worker;
 *   <li>{@code svc_operator_leader}: 1 while this replica holds the lease and reconciles, else 0.
 * </ul>
 *
 * <p>One instance per registry: the reconcile timer and the sign-in counter are registered with the
 * registry's Prometheus registry, which refuses a second collector of the same names.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class OperatorMetrics {

  /**
   * The Prometheus names of the operator's metrics: what {@code /metrics/controller} serves. Counters are
   * named by their family, without {@code _total}, as the registry's filter matches them.
   */
  public static final Set<String> PROMETHEUS_NAMES = Set.of(
      SigninCounter.NAME, "svc_active_user_sessions", ReconcileTimer.NAME, ReconcileTimer.MAX_NAME,
      "svc_reconciler_errors", "svc_reconciler_queue_depth",
      "svc_operator_leader");

  private final PrometheusMeterRegistry registry;
  private final Clock clock;
  private final ReconcileTimer reconciles;
  private final SigninCounter signins;
  private final Counter errors;
  private final Set<String> roles = ConcurrentHashMap.newKeySet();
  private volatile Supplier<Collection<SvcSignin>> cache = List::of;
  private volatile boolean leading;

  /**
   * The meters, registered in {@code registry}.
   *
   * @param registry where they are scraped
   * @param namespace {@code operator.namespace}, a label of the reconcile timer
   * @param clock what "Active" is measured against
   */
  public OperatorMetrics(PrometheusMeterRegistry registry, String namespace, Clock clock) {
    this.registry = registry;
    this.clock = clock;
    this.reconciles = new ReconcileTimer(namespace, clock);
    this.signins = new SigninCounter(clock);
    registry.getPrometheusRegistry().register(reconciles);
    registry.getPrometheusRegistry().register(signins);
    this.errors = Counter.builder("svc.reconciler.errors").tag("reconciler", ReconcileTimer.RECONCILER)
        .description("Reconciles that failed and are retried with back-off").register(registry);
    Gauge.builder("svc.operator.leader", () -> leading ? 1 : 0)
        .description("1 while this replica leads and reconciles sign-ins, else 0").register(registry);
  }

  /** Counts a provisioning of {@code username}'s session bound to {@code role}. */
  void signedIn(String role, String username) {
    signins.increment(role, username);
    knowRole(role);
  }

  /** Makes sure the active-session gauge has a series for {@code role}. */
  void knowRole(String role) {
    if (roles.add(role)) {
      Gauge.builder("svc.active.user.sessions", () -> active(role)).tag("cluster_role", role)
          .description("Active sign-ins (provisioned, not expired), from the informer cache").register(registry);
    }
  }

  /** Records one reconcile of {@code name}. */
  void reconciled(String name, Duration took) {
    reconciles.record(name, took);
  }

  /**
   * Removes the reconcile timer of {@code name}, whose sign-in is gone: a series per sign-in ever seen
   * would grow the heap and every scrape without end.
   */
  void forget(String name) {
    reconciles.forget(name);
  }

  /** Counts a failed reconcile. */
  void failed() {
    errors.increment();
  }

  /** Reports the queue's depth. */
  void queue(Supplier<Integer> depth) {
    Gauge.builder("svc.reconciler.queue.depth", depth::get)
        .description("Sign-in names waiting for a worker").register(registry);
  }

  /** Counts sessions in {@code signins}, the informer's cache. */
  void cache(Supplier<Collection<SvcSignin>> signins) {
    this.cache = signins;
  }

  /** Reports whether this replica leads. */
  void leading(boolean leads) {
    this.leading = leads;
  }

  private int active(String role) {
    Instant now = clock.instant();
    int count = 0;
    for (SvcSignin signin : cache.get()) {
      if (signin.getSpec() != null && role.equals(signin.getSpec().role()) && signin.getStatus() != null
          && signin.getStatus().provisioned()
          && Rfc3339.parse(signin.getStatus().validUntil()).map(now::isBefore).orElse(false)) {
        count++;
      }
    }
    return count;
  }
}
