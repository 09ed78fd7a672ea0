package dev.svc.server.operator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs tasks later: the operator's only source of timed work (requeues at {@code valid_until}, back-off
 * after errors, the periodic resync and orphan sweep). Together with a {@link java.time.Clock} it is
 * what tests replace to move time without sleeping.
 *
 * <p><b>Thread safety:</b> implementations are thread-safe.
 */
public interface Scheduler {

  /**
   * Runs {@code task} once, at {@code at}.
   *
   * @param at when to run it; a past instant runs it as soon as possible
   * @param task quick work, such as putting a name on the queue; it must not block
   * @return a handle to cancel the task before it runs
   */
  Scheduled scheduleAt(Instant at, Runnable task);

  /** A task waiting to run. */
  interface Scheduled {
    /** Makes the task not run, if it hasn't yet. */
    void cancel();
  }

  /**
   * A scheduler on {@code executor}'s threads, measuring time with {@code clock}.
   *
   * @param executor runs the tasks; the caller shuts it down
   * @param clock what instants are measured against
   * @return the scheduler
   */
  static Scheduler of(ScheduledExecutorService executor, Clock clock) {
    return (at, task) -> {
      long delay = Math.max(0, Duration.between(clock.instant(), at).toNanos());
      ScheduledFuture<?> future = executor.schedule(task, delay, TimeUnit.NANOSECONDS);
      return () -> future.cancel(false);
    };
  }
}
