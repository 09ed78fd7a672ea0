package dev.svc.server.operator;

import java.time.Duration;
import java.util.Set;

/**
 * How the operator runs.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param namespace {@code operator.namespace}: where sign-ins and their ServiceAccounts live
 * @param allowedRoles {@code operator.allowedRoles} (O9): the ClusterRoles that may be bound; empty
 *     allows any
 * @param workers how many sign-ins are reconciled at once
 * @param resyncEvery how often every cached sign-in is reconciled, whatever happened
 * @param sweepEvery how often orphaned bindings are looked for, besides at start
 * @param backoffBase the delay before retrying a failed reconcile; it doubles with each failure
 * @param backoffMax the longest delay before a retry
 */
public record OperatorSettings(String namespace, Set<String> allowedRoles, int workers, Duration resyncEvery,
    Duration sweepEvery, Duration backoffBase, Duration backoffMax) {

  /**
   * The number of workers by default. Reconciles mostly wait for the API: a provisioning makes three writes
   * one after the other, so {@code n} workers provision at most {@code n / (3 × round trip)} sign-ins a
   * second. Sixteen keep 200 a second (issue #18) within reach up to a round trip of 27 ms; four would need
   * one under 7 ms, less than an API server's write through etcd often takes.
   */
  public static final int WORKERS = 16;
  /** The resync period by default. */
  public static final Duration RESYNC_EVERY = Duration.ofMinutes(10);
  /** The orphan sweep's period (access-server spec §6.2 step 6). */
  public static final Duration SWEEP_EVERY = Duration.ofMinutes(10);
  /** The first retry's delay by default. */
  public static final Duration BACKOFF_BASE = Duration.ofMillis(500);
  /** The longest retry delay by default. */
  public static final Duration BACKOFF_MAX = Duration.ofMinutes(5);

  /**
   * Copies the roles and checks the number of workers.
   *
   * @param namespace {@code operator.namespace}
   * @param allowedRoles {@code operator.allowedRoles}; empty allows any
   * @param workers at least 1
   * @param resyncEvery the resync period
   * @param sweepEvery the orphan sweep's period
   * @param backoffBase the first retry's delay
   * @param backoffMax the longest retry delay
   */
  public OperatorSettings {
    allowedRoles = Set.copyOf(allowedRoles);
    if (workers < 1) {
      throw new IllegalArgumentException("the operator needs at least one worker, not " + workers);
    }
  }

  /**
   * The defaults for {@code namespace} and {@code allowedRoles}.
   *
   * @param namespace {@code operator.namespace}
   * @param allowedRoles {@code operator.allowedRoles}
   * @return the settings
   */
  public static OperatorSettings of(String namespace, Set<String> allowedRoles) {
    return new OperatorSettings(namespace, allowedRoles, WORKERS, RESYNC_EVERY, SWEEP_EVERY, BACKOFF_BASE,
        BACKOFF_MAX);
  }
}
