package dev.svc.supervisor.internal;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes a pool's threads: named {@code «prefix»N}, daemons (a pool left open doesn't keep the JVM
 * alive), with an 8 MiB stack so the engine runs on them directly instead of on its own stack helper
 * thread. Remembers them so closing the pool can wait until every one has ended.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class PoolThreads implements ThreadFactory {

  private static final long STACK_BYTES = 8L << 20;
  // One count for all pools in the JVM, so two pools' threads never share a name.
  private static final AtomicInteger NUMBER = new AtomicInteger();

  private final String prefix;
  private final Queue<Thread> started = new ConcurrentLinkedQueue<>();

  /**
   * A factory of threads named {@code prefix} and a number.
   *
   * @param prefix such as {@code svc-pool-exec-}
   */
  public PoolThreads(String prefix) {
    this.prefix = prefix;
  }

  @Override
  public Thread newThread(Runnable task) {
    started.removeIf(thread -> !thread.isAlive());
    Thread thread = new Thread(null, task, prefix + NUMBER.incrementAndGet(), STACK_BYTES);
    thread.setDaemon(true);
    started.add(thread);
    return thread;
  }

  /**
   * Waits until every thread made here has ended; the executor using them must be shut down first.
   * The calling thread itself, if it is one of them, is not waited for. An interrupt doesn't stop the
   * wait; the thread's interrupt status is set again afterwards.
   */
  public void awaitEnd() {
    boolean interrupted = false;
    for (Thread thread : started) {
      while (thread != Thread.currentThread() && thread.isAlive()) {
        try {
          thread.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
