package dev.svc.server.mesh.tailnet;

import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The deadlines of the calls in flight, ended by one periodic sweep instead of a timer per call: a
 * who-is runs on every API request, and arming and cancelling a timer for each cost more than the
 * call's own bookkeeping. A call therefore ends at most one {@link #tick} after its deadline.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
final class CallDeadlines {

  private static final Duration LONGEST_TICK = Duration.ofSeconds(1);
  private static final Duration SHORTEST_TICK = Duration.ofMillis(10);

  /** One call's deadline; what ends the call when it passes. */
  static final class Deadline {
    private final long at;
    private final Runnable expire;
    private final Set<Deadline> pending;

    private Deadline(long at, Runnable expire, Set<Deadline> pending) {
      this.at = at;
      this.expire = expire;
      this.pending = pending;
    }

    /** The call ended in time: its deadline is void. */
    void cancel() {
      pending.remove(this);
    }
  }

  private final Vertx vertx;
  private final Set<Deadline> pending = ConcurrentHashMap.newKeySet();
  private final long sweep;

  /**
   * Sweeps every tenth of {@code shortest}, at most every second and at least every 10 ms.
   *
   * @param vertx runs the sweep
   * @param shortest the shortest deadline a call gets
   */
  CallDeadlines(Vertx vertx, Duration shortest) {
    this.vertx = vertx;
    this.sweep = vertx.setPeriodic(tick(shortest).toMillis(), t -> sweep());
  }

  /** How often the sweep runs for calls whose shortest deadline is {@code shortest}. */
  static Duration tick(Duration shortest) {
    Duration tenth = shortest.dividedBy(10);
    if (tenth.compareTo(SHORTEST_TICK) < 0) {
      return SHORTEST_TICK;
    }
    return tenth.compareTo(LONGEST_TICK) > 0 ? LONGEST_TICK : tenth;
  }

  /**
   * A deadline {@code timeout} from now; when it passes before {@link Deadline#cancel()}, the sweep
   * runs {@code expire} once, on its own context.
   *
   * @param timeout how long the call may take
   * @param expire ends the call
   * @return the deadline, to cancel once the call ended
   */
  Deadline start(Duration timeout, Runnable expire) {
    Deadline deadline = new Deadline(System.nanoTime() + timeout.toNanos(), expire, pending);
    pending.add(deadline);
    return deadline;
  }

  private void sweep() {
    long now = System.nanoTime();
    for (Deadline deadline : pending) {
      if (now - deadline.at >= 0 && pending.remove(deadline)) {
        deadline.expire.run();
      }
    }
  }

  /** Stops the sweep; the calls still pending keep no deadline. */
  void close() {
    vertx.cancelTimer(sweep);
  }
}
