package dev.svc.server.engine;

import dev.svc.supervisor.Pool;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Where the HTTP layer runs engine operations: on the supervisor's {@link Pool}, never on the event
 * loop that asked. {@link SupervisedEngines} is the server's; tests put one in that holds calls.
 *
 * <p><b>Thread safety:</b> implementations are thread-safe.
 */
public interface EnginePool extends AutoCloseable {

  /**
   * Runs {@code operation} with the pool on a thread that may block, off the calling thread.
   *
   * @param <T> the operation's result
   * @param operation one or more calls on the pool, such as {@link Pool#evaluateJson} or
   *     {@link Pool#withEngine}
   * @return completes with the operation's result, or with what it threw (such as an
   *     {@link dev.svc.engine.EngineException} or a {@link dev.svc.engine.BusyException})
   */
  <T> CompletionStage<T> submit(Function<Pool, T> operation);

  /** Lets the operations already submitted finish, then closes the pool. Idempotent. */
  @Override
  void close();
}
