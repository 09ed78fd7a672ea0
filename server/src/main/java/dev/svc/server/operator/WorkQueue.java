package dev.svc.server.operator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The operator's queue of sign-in names to reconcile (the shape of client-go's rate-limited work
 * queue). A name is held at most once however often it is added; a name being reconciled is never
 * handed to a second worker, and when it was added meanwhile it comes back once the first is
 * {@link #done}. Delayed additions keep only the earliest pending time per name, and failures delay
 * the next attempt exponentially ({@link #retryLater}) until {@link #forget} resets the count.
 *
 * <p><b>Thread safety:</b> thread-safe; {@link #take} blocks its caller (a worker thread, never an
 * event loop).
 */
final class WorkQueue {

  private final Clock clock;
  private final Scheduler scheduler;
  private final Duration backoffBase;
  private final Duration backoffMax;
  private final ArrayDeque<String> ready = new ArrayDeque<>();
  // INVARIANT: a name in ready is in queued; a name in queued is in ready or in processing.
  private final Set<String> queued = new HashSet<>();
  private final Set<String> processing = new HashSet<>();
  private final Map<String, Integer> failures = new HashMap<>();
  private final Map<String, Delayed> delayed = new HashMap<>();
  private boolean shutDown;

  private record Delayed(Instant at, Scheduler.Scheduled handle) {}

  /**
   * An empty queue.
   *
   * @param clock when delays start
   * @param scheduler runs delayed additions
   * @param backoffBase the delay after a first failure; it doubles with each further one
   * @param backoffMax the longest delay after failures
   */
  WorkQueue(Clock clock, Scheduler scheduler, Duration backoffBase, Duration backoffMax) {
    this.clock = clock;
    this.scheduler = scheduler;
    this.backoffBase = backoffBase;
    this.backoffMax = backoffMax;
  }

  /** Adds {@code name} now, unless it is queued already. */
  synchronized void add(String name) {
    if (shutDown || !queued.add(name)) {
      return;
    }
    if (!processing.contains(name)) {
      ready.add(name);
      notifyAll();
    }
  }

  /**
   * Adds {@code name} at {@code at}; an earlier pending addition of the name wins over a later one.
   */
  void addAt(String name, Instant at) {
    if (!at.isAfter(clock.instant())) {
      add(name);
      return;
    }
    synchronized (this) {
      if (shutDown) {
        return;
      }
      Delayed pending = delayed.get(name);
      if (pending != null && !pending.at().isAfter(at)) {
        return;
      }
      if (pending != null) {
        pending.handle().cancel();
      }
      delayed.put(name, new Delayed(at, scheduler.scheduleAt(at, () -> fire(name, at))));
    }
  }

  private void fire(String name, Instant at) {
    synchronized (this) {
      Delayed pending = delayed.get(name);
      if (pending != null && pending.at().equals(at)) {
        delayed.remove(name);
      }
    }
    add(name);
  }

  /**
   * Adds {@code name} again after the back-off its failures so far earn: the base, doubled for each
   * earlier failure, at most the maximum.
   *
   * @return the delay chosen
   */
  Duration retryLater(String name) {
    int count;
    synchronized (this) {
      count = failures.merge(name, 1, Integer::sum);
    }
    Duration delay = backoff(count);
    addAt(name, clock.instant().plus(delay));
    return delay;
  }

  private Duration backoff(int failureCount) {
    // Beyond 2^20 the maximum has long been reached; the cap keeps the shift from overflowing.
    int doublings = Math.min(failureCount - 1, 20);
    Duration delay = backoffBase.multipliedBy(1L << doublings);
    return delay.compareTo(backoffMax) > 0 ? backoffMax : delay;
  }

  /** Drops a delayed addition of {@code name}: its reconcile asked for none. */
  synchronized void cancelDelayed(String name) {
    Delayed pending = delayed.remove(name);
    if (pending != null) {
      pending.handle().cancel();
    }
  }

  /** Resets the failure count of {@code name} after it reconciled. */
  synchronized void forget(String name) {
    failures.remove(name);
  }

  /**
   * The next name to reconcile, waiting until there is one; the caller owns it until {@link #done}.
   *
   * @return the name, or empty once the queue is shut down
   * @throws InterruptedException if the waiting thread is interrupted
   */
  synchronized Optional<String> take() throws InterruptedException {
    while (ready.isEmpty() && !shutDown) {
      wait();
    }
    if (shutDown) {
      return Optional.empty();
    }
    String name = ready.poll();
    queued.remove(name);
    processing.add(name);
    return Optional.of(name);
  }

  /** Ends the reconcile of {@code name}; a name added meanwhile is ready again. */
  synchronized void done(String name) {
    processing.remove(name);
    if (queued.contains(name)) {
      ready.add(name);
      notifyAll();
    }
  }

  /**
   * How many names wait for a worker (not counting delayed ones).
   *
   * @return the number of ready names
   */
  synchronized int depth() {
    return ready.size();
  }

  /**
   * Whether nothing is ready or being reconciled; delayed additions may still come.
   *
   * @return true when idle
   */
  synchronized boolean idle() {
    return ready.isEmpty() && processing.isEmpty();
  }

  /** Stops the queue: waiting workers get empty, delayed additions are cancelled, adds are ignored. */
  synchronized void shutDown() {
    shutDown = true;
    delayed.values().forEach(pending -> pending.handle().cancel());
    delayed.clear();
    notifyAll();
  }
}
