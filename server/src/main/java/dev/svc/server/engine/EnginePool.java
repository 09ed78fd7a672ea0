package dev.svc.server.engine;

import dev.svc.engine.Engine;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Where the HTTP layer runs engine operations: never on the event loop that asked, always on an engine
 * instance no other call uses at the same time. {@link FixedEnginePool} is today's; the supervisor's
 * pool, which rebuilds stopped instances in the background and reinstalls their policies, takes its
 * place behind this interface.
 *
 * <p><b>Thread safety:</b> implementations are thread-safe.
 */
public interface EnginePool extends AutoCloseable {

  /**
   * Runs {@code operation} on a free engine instance, off the calling thread.
   *
   * @param <T> the operation's result
   * @param operation one or more calls on the instance; it must not keep the instance
   * @return completes with the operation's result, or with what it threw (such as an
   *     {@link dev.svc.engine.EngineException}), on a thread of the pool
   */
  <T> CompletionStage<T> submit(Function<Engine, T> operation);

  /** Lets the operations already submitted finish, then frees every instance. Idempotent. */
  @Override
  void close();
}
