package dev.svc.server.health;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.svc.server.http.ApiError;
import dev.svc.server.http.ApiErrors;
import dev.svc.server.http.ApiJson;
import dev.svc.server.http.ApiRoute;
import dev.svc.server.http.RouteTable;
import dev.svc.server.operator.OperatorMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.tracing.TracingPolicy;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.micrometer.PrometheusScrapingHandler;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The health and metrics listener on {@code health.port}, plain HTTP on every interface (the pod
 * network, never the mesh), without authentication (access-server spec §9). A request the mesh says
 * came from a tailnet peer gets 403:
 *
 * <ul>
 *   <li>{@code GET /healthz}: 200 {@code {"status":"ok"}} while the event loops answer, 503
 *       {@code {"status":"failed","reason":...}} once a part has failed fatally;
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
  private final Supplier<Liveness> liveness;
  private final Function<SocketAddress, Future<Boolean>> fromMesh;
  private HttpServer server;

  /**
   * The listener for {@code port}.
   *
   * @param port the port; 0 picks a free one
   * @param registry the metrics to serve
   * @param readiness asked on every {@code /ready}; must not block
   * @param liveness asked on every {@code /healthz}; must not block
   * @param fromMesh whether a connection's remote address is a mesh peer's, whose requests are refused
   */
  public HealthVerticle(int port, PrometheusMeterRegistry registry, Supplier<Readiness> readiness,
      Supplier<Liveness> liveness, Function<SocketAddress, Future<Boolean>> fromMesh) {
    this.port = port;
    this.registry = registry;
    this.readiness = readiness;
    this.liveness = liveness;
    this.fromMesh = fromMesh;
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);
    router.route().handler(this::refuseMeshPeers);
    RouteTable routes = new RouteTable(List.of(
        new ApiRoute(HttpMethod.GET, "/healthz", ctx -> {
          Liveness now = liveness.get();
          ApiJson.write(ctx, now.alive() ? 200 : 503, now.alive() ? Map.of("status", "ok")
              : new Status("failed", now.reason()));
        }),
        new ApiRoute(HttpMethod.GET, "/ready", ctx -> {
          Readiness now = readiness.get();
          ApiJson.write(ctx, now.ready() ? 200 : 503, new Status(now.ready() ? "ready" : "not ready", now.reason()));
        }),
        new ApiRoute(HttpMethod.GET, "/metrics", PrometheusScrapingHandler.create(registry)),
        new ApiRoute(HttpMethod.GET, "/metrics/controller", ctx -> ctx.response()
            .putHeader("Content-Type", PROMETHEUS_TEXT)
            .end(registry.scrape(PROMETHEUS_TEXT, OperatorMetrics.PROMETHEUS_NAMES)))));
    routes.mount(router, List.of());
    // Nothing here is ever busy: the Retry-After of a 503 is unused.
    ApiErrors errors = new ApiErrors(0, routes, 1);
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

  // A daemon with userspace networking forwards every port of the node to loopback: without this, a
  // tailnet peer could read the metrics (with usernames) through the node's address.
  private void refuseMeshPeers(RoutingContext ctx) {
    SocketAddress peer = ctx.request().connection().remoteAddress();
    fromMesh.apply(peer).onComplete(checked -> {
      if (checked.succeeded() && !checked.result()) {
        ctx.next();
      } else {
        LOG.log(Level.WARNING, "health: refused a request from " + peer + ", which came through the mesh");
        ctx.fail(new ApiError(403, "The health port isn't served to the mesh",
            "probe it from the pod network; restrict the tailnet policy's grants to the API port"));
      }
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
