package dev.svc.server.engine;

import dev.svc.engine.Module;
import dev.svc.engine.SvcException;
import dev.svc.server.config.SvcConfig;
import dev.svc.supervisor.Pool;
import dev.svc.supervisor.PoolOptions;
import dev.svc.supervisor.micrometer.MicrometerPoolListener;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The server's engines: the supervisor's {@link Pool} of the bundled module, reporting to the
 * server's Micrometer registry, and the threads that call it.
 *
 * <p>There are {@link #THREADS_PER_INSTANCE} threads per instance, so a request that finds every
 * instance busy waits in the pool, where {@code engine.acquireTimeout} bounds the wait and a
 * {@link dev.svc.engine.BusyException} becomes 503, rather than in a queue nothing bounds. The
 * threads have an 8 MiB stack, so the engine runs on them directly instead of on a helper thread.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class SupervisedEngines implements EnginePool {

  /** Threads per engine instance. */
  static final int THREADS_PER_INSTANCE = 4;

  private static final long STACK_BYTES = 8L << 20;

  private final Module module;
  private final Pool pool;
  private final ExecutorService threads;
  private final AtomicBoolean closed = new AtomicBoolean();

  private SupervisedEngines(Module module, Pool pool, int threadCount) {
    this.module = module;
    this.pool = pool;
    AtomicInteger count = new AtomicInteger();
    this.threads = Executors.newFixedThreadPool(threadCount, task -> {
      Thread thread = new Thread(null, task, "svc-api-engine-" + count.incrementAndGet(), STACK_BYTES);
      thread.setDaemon(true);
      return thread;
    });
  }

  /**
   * Compiles (or loads from the cache) the bundled engine module and starts the pool {@code engine}
   * describes. Blocks for as long as that takes: call it off the event loop.
   *
   * @param engine the {@code engine.*} keys
   * @param registry where the pool's meters go ({@link MicrometerPoolListener})
   * @return the engines; the caller closes them
   * @throws SvcException if the module or an instance can't start
   */
  public static SupervisedEngines start(SvcConfig.Engine engine, MeterRegistry registry) {
    Module module = Module.bundled();
    try {
      PoolOptions options = PoolOptions.builder()
          .size(engine.instances())
          .acquireTimeout(engine.acquireTimeout())
          .listener(new MicrometerPoolListener(registry))
          .build();
      return new SupervisedEngines(module, Pool.create(module, options), engine.instances() * THREADS_PER_INSTANCE);
    } catch (RuntimeException | Error e) {
      module.close();
      throw e;
    }
  }

  @Override
  public <T> CompletionStage<T> submit(Function<Pool, T> operation) {
    try {
      return CompletableFuture.supplyAsync(() -> operation.apply(pool), threads);
    } catch (RejectedExecutionException e) {
      return CompletableFuture.failedFuture(new IllegalStateException("the engines are closed", e));
    }
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    threads.shutdown();
    try {
      // Each call has a hard deadline (Limits.opDeadline) and each wait the acquire timeout, so this ends.
      threads.awaitTermination(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    pool.close();
    module.close();
  }
}
