package dev.svc.server;

import dev.svc.engine.EngineModule;
import dev.svc.server.engine.EnginePool;
import dev.svc.supervisor.Pool;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A real pool of two instances, one of which a call holds until the test releases it: an install
 * compiles in the other, then waits to be copied into the held one.
 */
final class SecondInstanceHeld implements EnginePool {

  private final EngineModule module = EngineModule.bundled();
  private final Pool pool = Pool.create(module, 2);
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final CountDownLatch holding = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);

  SecondInstanceHeld() {
    threads.execute(() -> pool.withEngine(engine -> {
      holding.countDown();
      return await(release);
    }));
    await(holding);
  }

  @Override
  public <T> CompletionStage<T> submit(Function<Pool, T> operation) {
    return CompletableFuture.supplyAsync(() -> operation.apply(pool), threads);
  }

  /** Lets the held instance go. */
  void release() {
    release.countDown();
  }

  @Override
  public void close() {
    release();
    threads.shutdown();
    pool.close();
    module.close();
  }

  private static boolean await(CountDownLatch latch) {
    try {
      return latch.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
