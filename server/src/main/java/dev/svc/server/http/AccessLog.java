package dev.svc.server.http;

import dev.svc.server.telemetry.LogFields;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * The access log of the sign-in API (access-server spec §10.2): one INFO line {@code access} per
 * request once its answer is sent, with {@code method}, {@code path}, {@code status}, {@code latency}
 * (seconds), {@code trace_id} and {@code span_id} (all zeros without tracing) and {@code request_id}
 * (the {@code X-Request-Id} header, empty without one). Requests the auth layer refuses are logged too.
 *
 * <p>Mount it on the sign-in API's paths only, before their routes. The engine API ({@code /api/v1/*})
 * has none: it answers tens of thousands of evaluations a second, and a synchronous log line each
 * would cost more than the evaluation; its requests are counted and timed on {@code /metrics}.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class AccessLog implements Handler<RoutingContext> {

  private static final Logger LOG = System.getLogger(AccessLog.class.getName());
  private static final double NANOS_PER_SECOND = 1e9;

  @Override
  public void handle(RoutingContext ctx) {
    long start = System.nanoTime();
    // The request's span is current now; by the time the answer is sent, it may not be.
    SpanContext span = Span.current().getSpanContext();
    String requestId = ctx.request().getHeader("X-Request-Id");
    ctx.addEndHandler(done -> LOG.log(Level.INFO, "access", LogFields.of(
        "method", ctx.request().method().name(),
        "path", ctx.request().path(),
        "status", ctx.response().getStatusCode(),
        "latency", (System.nanoTime() - start) / NANOS_PER_SECOND,
        "trace_id", span.getTraceId(),
        "span_id", span.getSpanId(),
        "request_id", requestId == null ? "" : requestId)));
    ctx.next();
  }
}
