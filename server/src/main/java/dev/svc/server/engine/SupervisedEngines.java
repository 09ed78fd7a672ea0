package dev.svc.server.engine;

import dev.svc.engine.BusyException;
import dev.svc.engine.EngineModule;
import dev.svc.engine.SvcException;
import dev.svc.server.config.SvcConfig;
import dev.svc.supervisor.Pool;
import dev.svc.supervisor.PoolOptions;
import dev.svc.supervisor.micrometer.MicrometerPoolListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The server's engines: the supervisor's {@link Pool} of the bundled module, reporting to the
 * server's Micrometer registry, and the threads that call it.
 *
 * <p>There is one thread per instance, and calls wait for a thread in one first-come-first-served
 * queue. More threads than instances would wait in the pool instead, where a thread that just gave
 * an instance back takes it again for its next call ahead of the threads already waiting, so under
 * load some calls wait many times as long as the others (the tail of the latency). A call that had to
 * queue and waited longer than {@code engine.acquireTimeout} fails with a {@link BusyException}
 * (503) without running, as one that waits that long in the pool does, so the queue stays bounded in
 * time. The threads have an 8 MiB stack, so the engine runs on them directly instead of on a helper
 * thread.
 *
 * <table>
 *   <caption>Meters, besides the pool's ({@link MicrometerPoolListener})</caption>
 *   <tr><th>Name</th><th>Type</th><th>What</th></tr>
 *   <tr><td>{@code svc.engine.queue}</td><td>timer</td><td>how long calls waited for an engine thread</td></tr>
 *   <tr><td>{@code svc.engine.busy}</td><td>counter</td><td>calls that waited too long and didn't run</td></tr>
 * </table>
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class SupervisedEngines implements EnginePool {

  private static final long STACK_BYTES = 8L << 20;

  private final EngineModule module;
  private final Pool pool;
  private final int threadCount;
  private final ExecutorService threads;
  private final Duration acquireTimeout;
  private final LongSupplier nanoTime;
  private final Timer queueWaits;
  private final Counter busy;
  // Calls submitted and not yet ended: more than there are threads means the newest one queues.
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * Engines over {@code pool}, with one thread per instance.
   *
   * @param module what the pool's instances start from; closed after the pool
   * @param pool the pool; closed by {@link #close()}
   * @param instances the pool's size
   * @param acquireTimeout how long a call may wait for a thread once it queues
   * @param registry where the queue's meters go
   * @param nanoTime the clock of the waits, {@link System#nanoTime} but in tests
   */
  SupervisedEngines(EngineModule module, Pool pool, int instances, Duration acquireTimeout, MeterRegistry registry,
      LongSupplier nanoTime) {
    this.module = module;
    this.pool = pool;
    this.threadCount = instances;
    this.acquireTimeout = acquireTimeout;
    this.nanoTime = nanoTime;
    this.queueWaits = Timer.builder("svc.engine.queue")
        .description("time engine calls waited for an engine thread").register(registry);
    this.busy = Counter.builder("svc.engine.busy")
        .description("engine calls that waited longer than engine.acquireTimeout for a thread and didn't run")
        .register(registry);
    AtomicInteger count = new AtomicInteger();
    this.threads = Executors.newFixedThreadPool(instances, task -> {
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
   * @param registry where the pool's meters go ({@link MicrometerPoolListener}), and the queue's
   * @return the engines; the caller closes them
   * @throws SvcException if the module or an instance can't start
   */
  public static SupervisedEngines start(SvcConfig.Engine engine, MeterRegistry registry) {
    EngineModule module = EngineModule.bundled();
    try {
      PoolOptions options = PoolOptions.builder()
          .size(engine.instances())
          .acquireTimeout(engine.acquireTimeout())
          .listener(new MicrometerPoolListener(registry))
          .build();
      return new SupervisedEngines(module, Pool.create(module, options), engine.instances(), engine.acquireTimeout(),
          registry, System::nanoTime);
    } catch (RuntimeException | Error e) {
      module.close();
      throw e;
    }
  }

  @Override
  public <T> CompletionStage<T> submit(Function<Pool, T> operation) {
    long submitted = nanoTime.getAsLong();
    boolean queues = inFlight.incrementAndGet() > threadCount;
    try {
      return CompletableFuture.supplyAsync(() -> {
        try {
          return operation.apply(afterWait(submitted, queues));
        } finally {
          inFlight.decrementAndGet();
        }
      }, threads);
    } catch (RejectedExecutionException e) {
      inFlight.decrementAndGet();
      return CompletableFuture.failedFuture(new IllegalStateException("the engines are closed", e));
    }
  }

  // The pool, unless the call queued and waited past the acquire timeout.
  private Pool afterWait(long submitted, boolean queued) {
    long waited = nanoTime.getAsLong() - submitted;
    queueWaits.record(waited, TimeUnit.NANOSECONDS);
    if (queued && waited > acquireTimeout.toNanos()) {
      busy.increment();
      throw new BusyException(acquireTimeout);
    }
    return pool;
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
