package dev.svc.server;

import dev.svc.engine.EngineModule;
import dev.svc.server.engine.EnginePool;
import dev.svc.supervisor.Pool;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;

/** An engine pool whose calls wait until the test lets them run, on a real pool of one instance. */
final class HeldEngines implements EnginePool {

  private final EngineModule module = EngineModule.bundled();
  private final Pool pool = Pool.create(module, 1);
  private final Queue<Runnable> held = new ConcurrentLinkedQueue<>();
  private final Set<String> callerThreads = ConcurrentHashMap.newKeySet();

  @Override
  public <T> CompletionStage<T> submit(Function<Pool, T> operation) {
    CompletableFuture<T> result = new CompletableFuture<>();
    callerThreads.add(Thread.currentThread().getName());
    held.add(() -> {
      try {
        result.complete(operation.apply(pool));
      } catch (RuntimeException e) {
        result.completeExceptionally(e);
      }
    });
    return result;
  }

  /** How many calls wait. */
  int waiting() {
    return held.size();
  }

  /** The threads that submitted calls: the API's event loops. */
  Set<String> callerThreads() {
    return Set.copyOf(callerThreads);
  }

  /** Runs the waiting calls. */
  void release() {
    for (Runnable call = held.poll(); call != null; call = held.poll()) {
      call.run();
    }
  }

  @Override
  public void close() {
    pool.close();
    module.close();
  }
}
