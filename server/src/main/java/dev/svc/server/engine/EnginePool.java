package dev.svc.server.engine;

import dev.svc.engine.EvalOptions;
import dev.svc.supervisor.Lane;
import dev.svc.supervisor.Pool;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Where the HTTP layer runs engine operations: on the supervisor's {@link Pool}, off the event loop
 * that asked, but for a quick evaluation that {@link #tryEvaluateJson} may run there.
 * {@link SupervisedEngines} is the server's; tests put one in that holds calls.
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
   * {@link Pool#tryEvaluateJson}: the eval record of {@code name} for {@code input}, evaluated at once
   * on the calling thread (an event loop) on an instance that is idle this moment, within
   * {@code budget}; or nothing, for the caller to {@link #submit(Lane, String, Function) submit} it.
   * A pool that evaluates nothing on the caller's thread, as one of engine host processes, answers
   * empty.
   *
   * @param name the name the policy is installed under
   * @param input the input, as {@link Pool#evaluateJson} takes it
   * @param options the evaluation's timeout and trace
   * @param budget the most time the calling thread may spend
   * @return the eval record's JSON; empty when it wasn't evaluated here
   * @throws RuntimeException what {@link Pool#tryEvaluateJson} throws, such as a
   *     {@link dev.svc.engine.NoPolicyException}
   */
  default Optional<byte[]> tryEvaluateJson(String name, Object input, EvalOptions options, Duration budget) {
    return Optional.empty();
  }

  /**
   * Closes the pool once the operations running finish; those still waiting for a thread or an
   * instance fail with an {@link IllegalStateException}. Idempotent.
   */
  @Override
  void close();
}
