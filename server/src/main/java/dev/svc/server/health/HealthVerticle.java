package dev.svc.server.health;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.svc.server.http.ApiErrors;
import dev.svc.server.http.RouteTable;
import dev.svc.server.http.ApiJson;
import dev.svc.server.operator.OperatorMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.tracing.TracingPolicy;
import io.vertx.ext.web.Router;
import io.vertx.micrometer.PrometheusScrapingHandler;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The health and metrics listener on {@code health.port}, plain HTTP on every interface (the pod
 * network, never the mesh), without authentication (access-server spec §9):
 *
 * <ul>
 *   <li>{@code GET /healthz}: 200 {@code {"status":"ok"}} while the event loops answer;
 *   <li>{@code GET /ready}: 200 {@code {"status":"ready","reason":...}} when the server takes API
 *       requests, else 503 {@code {"status":"not ready","reason":...}};
 *   <li>{@code GET /metrics}: every metric in the Prometheus text format;
 *   <li>{@code GET /metrics/controller}: the operator's metrics only (tka's path, kept).
 * </ul>
 *
 * <p>Its requests are not traced, so probes and scrapes don't flood the trace backend.
 *
 * <p><b>Thread safety:</b> a verticle: Vert.x calls it on its event loop.
 */
public final class HealthVerticle extends VerticleBase {

  // The Prometheus text format's type, as the scraping handler of /metrics answers it.
  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
  private static final Logger LOG = System.getLogger(HealthVerticle.class.getName());

  /** The body of {@code /healthz} and {@code /ready}. */
  record Status(@JsonProperty("status") String status, @JsonProperty("reason") String reason) {}

  private final int port;
  private final PrometheusMeterRegistry registry;
  private final Supplier<Readiness> readiness;
  private HttpServer server;

  /**
   * The listener for {@code port}.
   *
   * @param port the port; 0 picks a free one
   * @param registry the metrics to serve
   * @param readiness asked on every {@code /ready}; must not block
   */
  public HealthVerticle(int port, PrometheusMeterRegistry registry, Supplier<Readiness> readiness) {
    this.port = port;
    this.registry = registry;
    this.readiness = readiness;
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);
    router.get("/healthz").handler(ctx -> ApiJson.write(ctx, 200, Map.of("status", "ok")));
    router.get("/ready").handler(ctx -> {
      Readiness now = readiness.get();
      ApiJson.write(ctx, now.ready() ? 200 : 503, new Status(now.ready() ? "ready" : "not ready", now.reason()));
    });
    router.get("/metrics").handler(PrometheusScrapingHandler.create(registry));
    router.get("/metrics/controller").handler(ctx -> ctx.response()
        .putHeader("Content-Type", PROMETHEUS_TEXT)
        .end(registry.scrape(PROMETHEUS_TEXT, OperatorMetrics.PROMETHEUS_NAMES)));
    // Nothing here is ever busy: the Retry-After of a 503 is unused.
    ApiErrors errors = new ApiErrors(0, new RouteTable(Map.of("/healthz", "GET", "/ready", "GET", "/metrics", "GET",
        "/metrics/controller", "GET")), 1);
    router.route().failureHandler(errors);
    router.errorHandler(404, errors);
    router.errorHandler(405, errors);
    HttpServerOptions options = new HttpServerOptions().setHost("0.0.0.0").setPort(port)
        .setTracingPolicy(TracingPolicy.IGNORE);
    return vertx.createHttpServer(options).requestHandler(router).listen().onSuccess(s -> {
      server = s;
      LOG.log(Level.INFO, "health and metrics listening on http://0.0.0.0:" + s.actualPort()
          + " (/healthz, /ready, /metrics)");
    });
  }

  /**
   * The port the listener is bound to.
   *
   * @return the port, once started
   */
  public int port() {
    return server.actualPort();
  }
}
