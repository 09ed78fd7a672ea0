package dev.svc.engine.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Advances one wasmtime engine's epoch every {@link #TICK} while calls with a hard deadline run, so
 * wasmtime can interrupt a call that overruns (bindings.md §8.2).
 *
 * <p>Ticks follow an absolute schedule: each is due one period after the previous due time, so
 * wake-ups for other reasons neither delay nor advance it; when the thread falls behind it fires one
 * tick and reschedules from now. A call with a deadline holds a watch while it runs; after the last
 * watch ends the thread ticks on for {@link #LINGER}, so a steady stream of calls never pays a
 * wake-up, then parks. An idle process has no timer waking up.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class EpochTicker implements AutoCloseable {

  /** How often the epoch advances while watched. */
  public static final Duration TICK = Duration.ofMillis(2);
  /** How long the thread keeps ticking after the last watch ends. */
  public static final Duration LINGER = Duration.ofMillis(50);

  private final long engine;
  // Watches are counted without the lock: a call with a deadline must not pay for one. The thread
  // publishes `parked` before it re-reads `watches`, and a watcher publishes its watch before it
  // reads `parked`, so one of the two always sees the other and no watch sleeps through.
  private final AtomicInteger watches = new AtomicInteger();
  private volatile boolean parked;
  private volatile boolean started;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition watched = lock.newCondition();
  private boolean closed; // guarded by lock
  private Thread thread; // guarded by lock; started on the first watch

  /** A ticker for the engine {@code engine} (a {@link Native#engineNew} handle the caller owns). */
  public EpochTicker(long engine) {
    this.engine = engine;
  }

  /**
   * The epoch deadline, in ticks from now, that lets a call run for at least {@code deadline}: one
   * more than the whole ticks it spans, for the tick already in progress (0 -> 1, 2 ms -> 2,
   * 2 ms + 1 ns -> 3, 100 ms -> 51).
   */
  public static long ticksFor(Duration deadline) {
    // Saturating at Long.MAX_VALUE ns (292 years) keeps the ticks far below where wasmtime's sum of
    // epoch and deadline could overflow.
    long tickNanos = TICK.toNanos();
    long nanos = deadline.isNegative() ? 0 : saturatedNanos(deadline);
    return nanos / tickNanos + (nanos % tickNanos == 0 ? 0 : 1) + 1;
  }

  /** Starts ticking (if it wasn't) until {@link #unwatch()}; pair every call with one unwatch. */
  public void watch() {
    watches.incrementAndGet();
    if (!started || parked) {
      wake();
    }
  }

  /** Ends one watch begun by {@link #watch()}. */
  public void unwatch() {
    watches.decrementAndGet();
  }

  private void wake() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      if (thread == null) {
        thread = new Thread(this::run, "svc-epoch-ticker");
        thread.setDaemon(true);
        started = true;
        thread.start();
      } else {
        watched.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Whether the thread has parked for want of watches (it ticks again on the next watch). */
  boolean parked() {
    return parked;
  }

  /** Stops the thread; later watches do nothing. Idempotent. */
  @Override
  public void close() {
    Thread running;
    lock.lock();
    try {
      closed = true;
      running = thread;
      watched.signal();
    } finally {
      lock.unlock();
    }
    if (running != null) {
      running.interrupt();
      joinQuietly(running);
    }
  }

  private void run() {
    long tick = TICK.toNanos();
    long due = System.nanoTime() + tick;
    long lastWatched = System.nanoTime();
    while (true) {
      if (!awaitWatch(lastWatched)) {
        return;
      }
      long now = System.nanoTime();
      if (watches.get() > 0) {
        lastWatched = now;
      }
      if (now - due < 0) {
        if (!sleepUntil(due)) {
          return;
        }
        due += tick;
      } else {
        due = now + tick;
      }
      Native.engineIncrementEpoch(engine);
    }
  }

  // Parks once the linger after the last watch has passed; false when the ticker is closed.
  private boolean awaitWatch(long lastWatched) {
    lock.lock();
    try {
      while (!closed && System.nanoTime() - lastWatched >= LINGER.toNanos()) {
        parked = true;
        if (watches.get() > 0) {
          parked = false;
          break;
        }
        watched.awaitUninterruptibly();
        parked = false;
      }
      return !closed;
    } finally {
      lock.unlock();
    }
  }

  private static boolean sleepUntil(long due) {
    long wait = due - System.nanoTime();
    if (wait <= 0) {
      return true;
    }
    try {
      TimeUnit.NANOSECONDS.sleep(wait);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  private static void joinQuietly(Thread thread) {
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
