package dev.svc.server;

import dev.svc.server.access.AccessRoutes;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.engine.EnginePool;
import dev.svc.server.engine.EngineRoutes;
import dev.svc.server.engine.PolicyCatalog;
import dev.svc.server.engine.PolicyRoutes;
import dev.svc.server.http.AccessLog;
import dev.svc.server.http.ApiErrors;
import dev.svc.server.http.ApiRoute;
import dev.svc.server.http.CallerAuthHandler;
import dev.svc.server.http.HttpTimeouts;
import dev.svc.server.http.RequestMetrics;
import dev.svc.server.http.RouteTable;
import dev.svc.server.http.Utf8;
import dev.svc.server.mesh.Mesh;
import dev.svc.server.openapi.SwaggerRoutes;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.Tracer;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One of the API's listeners on the mesh, one per event loop, sharing the port: every API route
 * admits only callers the mesh vouches for ({@link CallerAuthHandler}), reads bodies up to
 * {@link #BODY_LIMIT}, and runs under the {@code server.*} timeouts ({@link HttpTimeouts}). Stopping
 * it lets requests in flight finish, for up to the shutdown grace.
 *
 * <p><b>Thread safety:</b> a verticle: Vert.x calls it on its event loop.
 */
final class ApiVerticle extends VerticleBase {

  /** The most bytes a request body may have: room for a large bundle of policy files. */
  static final long BODY_LIMIT = 4L << 20;

  private static final Logger LOG = System.getLogger(ApiVerticle.class.getName());

  private final SvcConfig config;
  private final Mesh mesh;
  private final EnginePool engines;
  private final PolicyCatalog catalog;
  private final AccessRoutes access;
  private final Duration shutdownGrace;
  private final MeterRegistry registry;
  private final HttpServerOptions listenOptions;
  private final Optional<Tracer> tracer;
  private HttpServer server;

  /**
   * One of the API's listeners, which share its port, each on its event loop.
   *
   * @param listenOptions the options of {@link #listenOptions}, as the mesh completed them
   * @param tracer gets the auth layer's spans; empty when nothing is exported
   */
  ApiVerticle(SvcConfig config, Mesh mesh, EnginePool engines, PolicyCatalog catalog, AccessRoutes access,
      Duration shutdownGrace, MeterRegistry registry, HttpServerOptions listenOptions, Optional<Tracer> tracer) {
    this.config = config;
    this.tracer = tracer;
    this.listenOptions = listenOptions;
    this.access = access;
    this.mesh = mesh;
    this.engines = engines;
    this.catalog = catalog;
    this.shutdownGrace = shutdownGrace;
    this.registry = registry;
  }

  @Override
  public Future<?> start() {
    // The policies' routes first: their evaluations are nearly all the traffic, and the router tries
    // the routes in order.
    PolicyRoutes policies = new PolicyRoutes(engines, catalog, config.engine());
    List<ApiRoute> guarded = new ArrayList<>(policies.routes());
    guarded.addAll(new EngineRoutes(engines).routes());
    guarded.addAll(access.routes());
    List<ApiRoute> docs = new SwaggerRoutes().routes();
    List<ApiRoute> declared = new ArrayList<>(guarded);
    declared.addAll(docs);
    RouteTable routes = new RouteTable(declared);
    HttpTimeouts timeouts = new HttpTimeouts(vertx, config.server());
    Router router = Router.router(vertx);
    router.route().handler(new RequestMetrics(registry, routes));
    // The sign-in API only: a log line per engine API request would cost more than its evaluation.
    router.route(AccessRoutes.BASE + "/*").handler(new AccessLog());
    router.route().handler(timeouts::startDeadlines);
    router.route().handler(Utf8::requirePath);
    List<Handler<RoutingContext>> guards = List.of(
        new CallerAuthHandler(mesh, config.mesh().capName(), registry, tracer),
        BodyHandler.create(false).setBodyLimit(BODY_LIMIT));
    new RouteTable(guarded).mount(router, guards);
    access.mountAnswers(router);
    new RouteTable(docs).mount(router, List.of());
    ApiErrors errors = new ApiErrors(BODY_LIMIT, routes, config.api().retryAfterSeconds());
    router.route().failureHandler(errors);
    router.errorHandler(404, errors);
    router.errorHandler(405, errors);
    return vertx.createHttpServer(new HttpServerOptions(listenOptions))
        .connectionHandler(timeouts::awaitHeaders)
        .requestHandler(policies.countingTurns(router))
        .listen()
        .onSuccess(s -> {
          server = s;
          mesh.serving(s);
          LOG.log(Level.DEBUG, "API listener on " + mesh.url(s.actualPort()) + " started");
        });
  }

  /**
   * The options of the API's listeners before the mesh adds where it listens and its certificate:
   * the {@code server.*} timeouts, and no WebSocket compression, whose handler would sit in every
   * connection's pipeline though the API has no WebSocket route.
   *
   * @param config the {@code server.*} keys
   * @return the options
   */
  static HttpServerOptions listenOptions(SvcConfig.Server config) {
    return HttpTimeouts.apply(config, new HttpServerOptions())
        .setPerMessageWebSocketCompressionSupported(false)
        .setPerFrameWebSocketCompressionSupported(false);
  }

  @Override
  public Future<?> stop() {
    // New connections are refused at once; requests in flight get the grace to finish.
    return server == null ? Future.succeededFuture() : server.shutdown(shutdownGrace.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The port the API listens on, once started. */
  int port() {
    return server.actualPort();
  }
}
