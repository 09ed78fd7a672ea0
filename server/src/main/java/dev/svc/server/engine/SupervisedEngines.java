package dev.svc.server.engine;

import dev.svc.engine.EngineModule;
import dev.svc.engine.SvcException;
import dev.svc.server.config.SvcConfig;
import dev.svc.supervisor.Pool;
import dev.svc.supervisor.PoolOptions;
import dev.svc.supervisor.micrometer.MicrometerPoolListener;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The server's engines: the supervisor's {@link Pool} of the bundled module, reporting to the
 * server's Micrometer registry ({@link MicrometerPoolListener}). Every operation goes to
 * {@link Pool#async}, so it runs on one of the pool's own threads, never on an event loop, in the
 * pool's one first-come-first-served line; one that waits there or for an instance longer than
 * {@code engine.acquireTimeout} fails with a {@link dev.svc.engine.BusyException} (503).
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class SupervisedEngines implements EnginePool {

  private final EngineModule module;
  private final Pool pool;

  private SupervisedEngines(EngineModule module, Pool pool) {
    this.module = module;
    this.pool = pool;
  }

  /**
   * Compiles (or loads from the cache) the bundled engine module and starts the pool {@code engine}
   * describes. Blocks for as long as that takes: call it off the event loop.
   *
   * @param engine the {@code engine.*} keys
   * @param registry where the pool's meters go
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
      return new SupervisedEngines(module, Pool.create(module, options));
    } catch (RuntimeException | Error e) {
      module.close();
      throw e;
    }
  }

  @Override
  public <T> CompletionStage<T> submit(Function<Pool, T> operation) {
    return pool.async(operation);
  }

  /** Closes the pool, which waits for the calls on its threads, then the module. */
  @Override
  public void close() {
    pool.close();
    module.close();
  }
}
