package dev.svc.server.engine;

import dev.svc.engine.Engine;
import dev.svc.engine.Module;
import dev.svc.engine.SvcException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A fixed set of engine instances of the bundled module, each call on one of its own threads. A
 * stopped instance is replaced when its call returns; if that fails, the stopped one stays (its calls
 * fail at once, without entering the module) and the next call tries again. The stand-in for the
 * supervisor's pool, which rebuilds in the background.
 *
 * <p>The threads have an 8 MiB stack, so the engine runs on them directly instead of handing each call
 * to a helper thread with enough native stack.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class FixedEnginePool implements EnginePool {

  private static final Logger LOG = System.getLogger(FixedEnginePool.class.getName());
  private static final long STACK_BYTES = 8L << 20;

  private final Module module;
  // INVARIANT: as many instances as threads, and a call holds one for its duration, so a thread
  // starting a call always finds one here.
  private final BlockingQueue<Engine> idle;
  private final ExecutorService threads;
  private final int size;
  private final AtomicBoolean closed = new AtomicBoolean();

  private FixedEnginePool(Module module, List<Engine> engines) {
    this.module = module;
    this.size = engines.size();
    this.idle = new LinkedBlockingQueue<>(engines);
    AtomicInteger count = new AtomicInteger();
    this.threads = Executors.newFixedThreadPool(size, task -> {
      Thread thread = new Thread(null, task, "svc-engine-" + count.incrementAndGet(), STACK_BYTES);
      thread.setDaemon(true);
      return thread;
    });
  }

  /**
   * Compiles (or loads from the cache) the bundled engine module and starts {@code size} instances of
   * it. Blocks for as long as that takes: call it off the event loop.
   *
   * @param size how many calls may run at once
   * @return the pool; the caller closes it
   * @throws SvcException if the module or an instance can't start
   */
  public static FixedEnginePool start(int size) {
    if (size < 1) {
      throw new IllegalArgumentException("a pool needs at least one engine, not " + size);
    }
    Module module = Module.bundled();
    List<Engine> engines = new ArrayList<>(size);
    try {
      for (int i = 0; i < size; i++) {
        engines.add(Engine.create(module));
      }
    } catch (RuntimeException | Error e) {
      engines.forEach(Engine::close);
      module.close();
      throw e;
    }
    return new FixedEnginePool(module, engines);
  }

  @Override
  public <T> CompletionStage<T> submit(Function<Engine, T> operation) {
    return CompletableFuture.supplyAsync(() -> {
      Engine engine = idle.remove();
      try {
        return operation.apply(engine);
      } finally {
        idle.add(renewIfStopped(engine));
      }
    }, threads);
  }

  private Engine renewIfStopped(Engine engine) {
    if (engine.stopped().isEmpty()) {
      return engine;
    }
    try {
      Engine fresh = Engine.create(module);
      engine.close();
      return fresh;
    } catch (SvcException e) {
      LOG.log(Level.ERROR, "replacing a stopped engine instance failed; its calls fail until the next try", e);
      return engine;
    }
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    threads.shutdown();
    try {
      // Each call has a hard deadline (Limits.opDeadline), so the wait ends.
      threads.awaitTermination(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    List<Engine> engines = new ArrayList<>(size);
    idle.drainTo(engines);
    engines.forEach(Engine::close);
    module.close();
  }
}
