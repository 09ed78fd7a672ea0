package dev.svc.engine.internal;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The two kinds of thread a guest call comes from, for tests that must hold on both paths of the
 * bridge: a thread with room for guest code on its own stack, whose calls run inline, and one with a
 * tiny stack, whose calls the bridge hands to the instance's big-stack helper thread.
 */
public enum CallingThread {
  /** The test's own thread (the JVM's default stack of 1 MiB or more): guest code runs on it. */
  ROOMY,
  /** A new thread asking for a 64 KiB stack: guest code runs on the helper thread. */
  TINY;

  /** The name of the bridge's big-stack helper thread. */
  public static final String HELPER = "svc-engine-stack";

  private static final long TINY_STACK = 64 * 1024;

  /** Something to run on the calling thread; may throw anything, assertion errors included. */
  @FunctionalInterface
  public interface Body {
    void run() throws Exception;
  }

  /** Runs {@code body} on a thread of this kind and rethrows whatever it threw, unchanged. */
  public void run(Body body) throws Exception {
    if (this == ROOMY) {
      body.run();
      return;
    }
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread thread = new Thread(null, () -> {
      try {
        body.run();
      } catch (Throwable t) {
        thrown.set(t);
      }
    }, "tiny-stack-caller", TINY_STACK);
    thread.start();
    thread.join();
    rethrow(thrown.get());
  }

  private static void rethrow(Throwable thrown) throws Exception {
    if (thrown instanceof Exception e) {
      throw e;
    }
    if (thrown instanceof Error e) {
      throw e;
    }
  }
}
