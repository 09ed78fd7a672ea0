package dev.svc.server.telemetry;

import dev.svc.engine.EvalOptions;
import dev.svc.server.engine.EnginePool;
import dev.svc.supervisor.Lane;
import dev.svc.supervisor.Pool;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * An {@link EnginePool} whose operations are spans: {@code engine «name»}, children of the span that
 * was current where they were submitted (the HTTP request's, on its event loop), timed on the engine
 * thread from the start of the work to its end, so a trace shows the queue and the engine apart. An
 * operation that throws ends its span with the error recorded; a failed evaluation is a result, not
 * an error. An evaluation on the event loop ({@link #tryEvaluateJson}) is the same span, timed on the
 * loop; an attempt there that gave way to the lane is none, the lane's evaluation being the span.
 *
 * <p><b>Thread safety:</b> thread-safe, as the pool it wraps.
 */
public final class TracedEngines implements EnginePool {

  private final EnginePool engines;
  private final Tracer tracer;

  /**
   * Traces the operations of {@code engines} with {@code tracer}.
   *
   * @param engines the pool that runs them
   * @param tracer where the spans go
   */
  public TracedEngines(EnginePool engines, Tracer tracer) {
    this.engines = Objects.requireNonNull(engines, "engines");
    this.tracer = Objects.requireNonNull(tracer, "tracer");
  }

  @Override
  public <T> CompletionStage<T> submit(Function<Pool, T> operation) {
    return submit("operation", operation);
  }

  @Override
  public <T> CompletionStage<T> submit(String name, Function<Pool, T> operation) {
    return submit(Lane.OPERATIONS, name, operation);
  }

  @Override
  public <T> CompletionStage<T> submit(Lane lane, String name, Function<Pool, T> operation) {
    Context parent = Context.current();
    return engines.submit(lane, name, pool -> traced(parent, name, operation, pool));
  }

  private <T> T traced(Context parent, String name, Function<Pool, T> operation, Pool pool) {
    Span span = spanOf(parent, name).startSpan();
    Scope scope = span.makeCurrent();
    try {
      return operation.apply(pool);
    } catch (RuntimeException | Error e) {
      failed(span, e);
      throw e;
    } finally {
      scope.close();
      span.end();
    }
  }

  // The span starts when the attempt did, once it is known to be an evaluation: most attempts are.
  @Override
  public Optional<byte[]> tryEvaluateJson(String name, Object input, EvalOptions options, Duration budget) {
    Context parent = Context.current();
    Instant start = Instant.now();
    try {
      Optional<byte[]> record = engines.tryEvaluateJson(name, input, options, budget);
      record.ifPresent(evaluated -> evalSpan(parent, start).end());
      return record;
    } catch (RuntimeException | Error e) {
      Span span = evalSpan(parent, start);
      failed(span, e);
      span.end();
      throw e;
    }
  }

  private Span evalSpan(Context parent, Instant start) {
    return spanOf(parent, "eval").setStartTimestamp(start).startSpan();
  }

  // The span of the engine operation `name`, such as `engine eval`.
  private SpanBuilder spanOf(Context parent, String name) {
    return tracer.spanBuilder("engine " + name).setParent(parent);
  }

  private static void failed(Span span, Throwable e) {
    span.recordException(e);
    span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
  }

  @Override
  public void close() {
    engines.close();
  }
}
