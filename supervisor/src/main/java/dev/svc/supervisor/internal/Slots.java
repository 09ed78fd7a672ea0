package dev.svc.supervisor.internal;

import dev.svc.engine.BusyException;
import dev.svc.supervisor.PoolStats;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Who holds which slot of a pool: the idle ones wait here (the most recently used first, its memory
 * is warm), the others are leased to one thread or being rebuilt. Also whether the pool is closed.
 *
 * <p>Locks and conditions instead of {@code synchronized}, so a virtual thread waiting for a slot
 * doesn't pin its carrier.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class Slots {

  private final ReentrantLock lock = new ReentrantLock();
  // Signalled once per slot going idle: wakes one caller waiting for any slot.
  private final Condition idleSlot = lock.newCondition();
  // Signalled for every change a roll-out or a rebuild's pause waits on: a slot went idle or started
  // rebuilding, or the pool closed.
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<Slot> idle = new ArrayDeque<>(); // guarded by lock
  private final Set<Integer> rebuilding = new HashSet<>(); // guarded by lock
  private final int size;
  private long replaced; // guarded by lock
  // Callers waiting in take: while any wait, a newcomer queues behind them instead of taking a slot
  // that went idle for one of them (a thread giving a slot back and taking one again would otherwise
  // win every time it gets the lock first, and waiters starved under load).
  private int waiting; // guarded by lock
  // Roll-outs waiting for a slot of theirs: takeIfIdle leaves the idle slots to them.
  private int rollOuts; // guarded by lock
  private boolean closed; // guarded by lock

  /**
   * The slots of a new pool, all idle.
   *
   * @param slots every slot, numbered from 0
   */
  public Slots(List<Slot> slots) {
    this.size = slots.size();
    slots.forEach(idle::push);
  }

  /**
   * Leases an idle slot, waiting for one up to {@code timeout}. First come, first served: a caller
   * takes an idle slot at once only when nobody waits.
   *
   * @param timeout how long to wait; empty for as long as it takes
   * @return the slot, now the caller's until it gives it back or hands it to a rebuild
   * @throws BusyException if no slot went idle within {@code timeout}
   * @throws IllegalStateException if the pool is closed, or closes while waiting
   * @throws CancellationException if the thread is interrupted while waiting (its interrupt status
   *     stays set)
   */
  public Slot take(Optional<Duration> timeout) {
    long remaining = timeout.map(Duration::toNanos).orElse(Long.MAX_VALUE);
    lock.lock();
    try {
      throwIfClosed();
      if (!idle.isEmpty() && waiting == 0) {
        return idle.pop();
      }
      return awaitSlot(timeout, remaining);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Leases a slot only if one is idle this moment and nobody waits for one (callers of {@link #take}
   * and roll-outs come first), without waiting even for the lock: for a caller that must never block,
   * such as an event loop. The slot {@code preferred} when it is idle, else the most recently used:
   * a thread that keeps to one instance finds that instance's memory in its processor's cache.
   *
   * @param preferred the number of the slot the caller would rather have, such as the one it had last;
   *     -1 for none
   * @return the slot, now the caller's until it gives it back or hands it to a rebuild; empty when no
   *     slot is idle, someone waits, or another thread holds the lock this moment
   * @throws IllegalStateException if the pool is closed
   */
  public Optional<Slot> takeIfIdle(int preferred) {
    if (!lock.tryLock()) {
      return Optional.empty();
    }
    try {
      throwIfClosed();
      if (idle.isEmpty() || waiting > 0 || rollOuts > 0) {
        return Optional.empty();
      }
      for (Slot slot : idle) {
        if (slot.id() == preferred) {
          idle.remove(slot);
          return Optional.of(slot);
        }
      }
      return Optional.of(idle.pop());
    } finally {
      lock.unlock();
    }
  }

  // INVARIANT: runs under the lock. Waits in line; a slot that goes idle wakes the longest waiter.
  private Slot awaitSlot(Optional<Duration> timeout, long remaining) {
    waiting++;
    boolean leased = false;
    try {
      while (true) {
        if (remaining <= 0) {
          throw new BusyException(timeout.orElseThrow());
        }
        remaining = timeout.isPresent() ? idleSlot.awaitNanos(remaining) : awaitForever(idleSlot);
        throwIfClosed();
        if (!idle.isEmpty()) {
          leased = true;
          return idle.pop();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException("interrupted while waiting for an engine instance of the pool");
    } finally {
      waiting--;
      if (!leased && !idle.isEmpty()) {
        idleSlot.signal(); // the slot this caller was woken for goes to the next in line
      }
    }
  }

  /**
   * Leases the slot {@code id} as soon as it is idle, for a roll-out.
   *
   * @param id the slot's number
   * @return the slot; empty if it is being rebuilt (the rebuild catches up by itself) or the pool is
   *     closed
   * @throws CancellationException if the thread is interrupted while waiting
   */
  public Optional<Slot> takeWhenIdle(int id) {
    lock.lock();
    rollOuts++;
    try {
      while (!closed && !rebuilding.contains(id)) {
        for (Slot slot : idle) {
          if (slot.id() == id) {
            idle.remove(slot);
            return Optional.of(slot);
          }
        }
        changed.await();
      }
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException("interrupted while waiting for an engine instance of the pool");
    } finally {
      rollOuts--;
      lock.unlock();
    }
  }

  /**
   * Returns a leased slot to the idle ones, or closes it if the pool closed meanwhile.
   *
   * @param slot a slot leased from here
   */
  public void giveBack(Slot slot) {
    if (!toIdle(slot)) {
      slot.retire();
    }
  }

  /**
   * Counts an instance that stopped and marks its slot as being rebuilt; or closes it if the pool is
   * closed.
   *
   * @param slot a leased slot whose instance stopped
   * @return true if the caller must now rebuild it
   */
  public boolean startRebuild(Slot slot) {
    lock.lock();
    try {
      replaced++;
      if (!closed) {
        rebuilding.add(slot.id());
        changed.signalAll();
        return true;
      }
    } finally {
      lock.unlock();
    }
    slot.retire();
    return false;
  }

  /**
   * Counts a fresh instance that stopped while its slot was being rebuilt.
   */
  public void countReplaced() {
    lock.lock();
    try {
      replaced++;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Ends a rebuild: the slot goes back into service, or is closed if the pool closed meanwhile.
   *
   * @param slot the rebuilt slot, or one whose rebuild was given up because the pool closed
   * @return true if the slot is back in service
   */
  public boolean endRebuild(Slot slot) {
    lock.lock();
    try {
      rebuilding.remove(slot.id());
    } finally {
      lock.unlock();
    }
    if (toIdle(slot)) {
      return true;
    }
    slot.retire();
    return false;
  }

  /**
   * Waits {@code pause}, or less if the pool closes meanwhile.
   *
   * @param pause how long
   * @return false if the pool is closed
   */
  public boolean pause(Duration pause) {
    long remaining = pause.toNanos();
    lock.lock();
    try {
      while (!closed && remaining > 0) {
        remaining = changed.awaitNanos(remaining);
      }
      return !closed;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !closed;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Whether the pool is closed.
   *
   * @return true once {@link #close()} ran
   */
  public boolean isClosed() {
    lock.lock();
    try {
      return closed;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Closes the pool: callers waiting for a slot fail, roll-outs and rebuilds stop, and later
   * leases fail. Slots leased or being rebuilt are closed when they come back.
   *
   * @return the idle slots, for the caller to close
   */
  public List<Slot> close() {
    lock.lock();
    try {
      closed = true;
      idleSlot.signalAll();
      changed.signalAll();
      List<Slot> taken = new ArrayList<>(idle);
      idle.clear();
      return taken;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The counts of slots now.
   *
   * @param installed how many recipes are installed
   * @return the stats
   */
  public PoolStats stats(int installed) {
    lock.lock();
    try {
      return new PoolStats(size, idle.size(), installed, replaced, rebuilding.size());
    } finally {
      lock.unlock();
    }
  }

  private boolean toIdle(Slot slot) {
    lock.lock();
    try {
      if (closed) {
        return false;
      }
      idle.push(slot);
      idleSlot.signal();
      changed.signalAll();
      return true;
    } finally {
      lock.unlock();
    }
  }

  private void throwIfClosed() {
    if (closed) {
      throw closedError();
    }
  }

  /**
   * The error of a call on a closed pool.
   *
   * @return a new exception saying so
   */
  public static IllegalStateException closedError() {
    return new IllegalStateException("the Pool is closed; create a new one");
  }

  private static long awaitForever(Condition condition) throws InterruptedException {
    condition.await();
    return Long.MAX_VALUE;
  }
}
