package dev.svc.server.operator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * A clock that stands still and a scheduler whose tasks run only when the test moves the clock: expiry,
 * back-off and periodic work tested without sleeping. Tasks run on the thread that calls {@link #advance}.
 */
final class ManualTime extends Clock implements Scheduler {

  private final List<Task> tasks = new ArrayList<>();
  private Instant now;
  private long sequence;

  private final class Task implements Scheduler.Scheduled {
    final Instant at;
    final long order;
    final Runnable run;

    Task(Instant at, long order, Runnable run) {
      this.at = at;
      this.order = order;
      this.run = run;
    }

    @Override
    public void cancel() {
      synchronized (ManualTime.this) {
        tasks.remove(this);
      }
    }
  }

  ManualTime(Instant start) {
    this.now = start;
  }

  @Override
  public synchronized Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("the manual clock is UTC");
  }

  @Override
  public synchronized Scheduled scheduleAt(Instant at, Runnable task) {
    Task scheduled = new Task(at, sequence++, task);
    tasks.add(scheduled);
    return scheduled;
  }

  /** Moves the clock by {@code step}, running every task that falls due on the way, in time order. */
  void advance(Duration step) {
    Instant until;
    synchronized (this) {
      until = now.plus(step);
    }
    while (true) {
      Task next;
      synchronized (this) {
        next = tasks.stream()
            .filter(task -> !task.at.isAfter(until))
            .min((a, b) -> a.at.equals(b.at) ? Long.compare(a.order, b.order) : a.at.compareTo(b.at))
            .orElse(null);
        if (next == null) {
          now = until;
          return;
        }
        tasks.remove(next);
        if (next.at.isAfter(now)) {
          now = next.at;
        }
      }
      next.run.run();
    }
  }
}
