package dev.svc.server.engine;

import dev.svc.supervisor.Lane;
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

  /**
   * {@link #submit(Function)}, naming the work for tracing: a traced pool makes it a span named
   * {@code engine «name»}, a child of the request that submitted it.
   *
   * @param <T> the operation's result
   * @param name what the operation does, such as {@code eval} or {@code check}
   * @param operation one or more calls on the pool
   * @return completes with the operation's result, or with what it threw
   */
  default <T> CompletionStage<T> submit(String name, Function<Pool, T> operation) {
    return submit(operation);
  }

  /**
   * {@link #submit(String, Function)} in {@code lane}: the server's pool runs evaluations
   * ({@link Lane#EVALUATIONS}) on threads and instances slow operations can't take
   * ({@link Lane#OPERATIONS}).
   *
   * @param <T> the operation's result
   * @param lane the line it waits in
   * @param name what the operation does, such as {@code eval} or {@code check}
   * @param operation one or more calls on the pool
   * @return completes with the operation's result, or with what it threw: also an
   *     {@link dev.svc.server.http.ApiError} 503 when the lane's line is full
   */
  default <T> CompletionStage<T> submit(Lane lane, String name, Function<Pool, T> operation) {
    return submit(name, operation);
  }

  /**
   * Closes the pool once the operations running finish; those still waiting for a thread or an
   * instance fail with an {@link IllegalStateException}. Idempotent.
   */
  @Override
  void close();
}
