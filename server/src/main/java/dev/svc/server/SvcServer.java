package dev.svc.server;

import dev.svc.server.config.SvcConfig;
import dev.svc.server.engine.ConfigPolicies;
import dev.svc.server.engine.EnginePool;
import dev.svc.server.engine.PolicyCatalog;
import dev.svc.server.engine.SupervisedEngines;
import dev.svc.server.health.HealthVerticle;
import dev.svc.server.health.Readiness;
import dev.svc.server.kube.KubernetesConnection;
import dev.svc.server.mesh.DevMesh;
import dev.svc.server.mesh.Mesh;
import dev.svc.server.mesh.MeshStatus;
import dev.svc.server.operator.LeaseSettings;
import dev.svc.server.operator.OperatorSettings;
import dev.svc.server.operator.OperatorVerticle;
import dev.svc.server.telemetry.Telemetry;
import dev.svc.server.telemetry.TracedEngines;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.MetricsDomain;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.tracing.opentelemetry.OpenTelemetryOptions;
import io.vertx.tracing.opentelemetry.OpenTelemetryTracingFactory;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * {@code svc serve}: the server as one object. Starting it builds Vert.x with Micrometer metrics (and
 * OpenTelemetry tracing when {@code otel.endpoint} is set), then, in order, the health listener (so
 * probes answer while the rest comes up), the engine pool, the operator (when the server connects to
 * Kubernetes), and the API listener on the mesh. Stopping goes the other way (access-server spec §1.4):
 * the health listener, then the API listener, which lets
 * requests in flight finish for up to {@link #SHUTDOWN_GRACE}, then the operator, the pool, the mesh, Vert.x and the
 * telemetry export, which flushes what is pending.
 *
 * <pre>{@code
 * SvcServer.start(ConfigLoader.load(sources))
 *     .onSuccess(server -> Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop())));
 * }</pre>
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class SvcServer {

  /** How long requests in flight may take to finish once the server stops. */
  public static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(30);

  private final SvcConfig config;
  private final Mesh mesh;
  private final Function<MeterRegistry, EnginePool> engineFactory;
  private final Optional<Function<Vertx, KubernetesConnection>> kubernetesFactory;
  private final PolicyCatalog catalog = new PolicyCatalog();
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Optional<Telemetry> telemetry;
  private final Vertx vertx;
  private volatile HealthVerticle health;
  private volatile String healthDeployment;
  private volatile EnginePool engines;
  private volatile ConfigPolicies configured;
  private volatile KubernetesConnection kubernetes;
  private volatile OperatorVerticle operator;
  private volatile String operatorDeployment;
  private volatile ApiVerticle api;
  private volatile String apiDeployment;
  private Future<Void> stopped; // guarded by this

  private SvcServer(SvcConfig config, Mesh mesh, Function<MeterRegistry, EnginePool> engineFactory,
      Optional<Function<Vertx, KubernetesConnection>> kubernetesFactory) {
    this.config = config;
    this.mesh = mesh;
    this.engineFactory = engineFactory;
    this.kubernetesFactory = kubernetesFactory;
    this.telemetry = Telemetry.start(config.otel(), registry);
    // The API counts and times its requests itself (RequestMetrics), at a fraction of the cost of
    // Vert.x's HTTP server metrics, which the spec allows in their place (access-server spec §9).
    VertxOptions options = new VertxOptions().setMetricsOptions(new MicrometerMetricsOptions()
        .setEnabled(true)
        .setJvmMetricsEnabled(true)
        .setDisabledMetricsCategories(Set.of(MetricsDomain.HTTP_SERVER.toCategory())));
    VertxBuilder builder = Vertx.builder().withMetrics(new MicrometerMetricsFactory(registry));
    telemetry.ifPresent(t -> {
      options.setTracingOptions(new OpenTelemetryOptions());
      builder.withTracer(new OpenTelemetryTracingFactory(t.sdk()));
    });
    this.vertx = builder.with(options).build();
  }

  /**
   * Starts the server {@code config} describes, on the mesh of {@code mesh.mode} with the supervisor's
   * pool of {@code engine.poolSize} instances.
   *
   * @param config the validated configuration
   * @return completes with the running server; fails with a {@link StartException} (or the cause
   *     underneath) when a part can't start, after stopping the parts that did
   */
  public static Future<SvcServer> start(SvcConfig config) {
    if (config.mesh().mode() != SvcConfig.MeshMode.DEV) {
      return Future.failedFuture(new StartException(
          "mesh mode " + config.mesh().mode().name().toLowerCase(Locale.ROOT) + " isn't available yet",
          "set mesh.mode to dev (--mesh-mode dev) to run on this machine without a tailnet", null));
    }
    return create(config, new DevMesh(config.mesh()), registry -> SupervisedEngines.start(config.engine(), registry))
        .start();
  }

  /**
   * A server {@code config} describes on {@code mesh}, with the engine pool {@code engines} makes; not
   * started yet.
   *
   * @param config the validated configuration
   * @param mesh where callers come from and who they are
   * @param engines makes the engine pool reporting to the server's registry, off the event loop; the
   *     server closes the pool when it stops
   * @return the server; start it once
   */
  public static SvcServer create(SvcConfig config, Mesh mesh, Function<MeterRegistry, EnginePool> engines) {
    return new SvcServer(config, mesh, engines, Optional.empty());
  }

  /**
   * A server as {@link #create(SvcConfig, Mesh, Function)} makes it, that also connects to Kubernetes
   * and runs the operator before it serves the API (access-server spec §1.3 steps 4 and 6).
   *
   * @param config the validated configuration
   * @param mesh where callers come from and who they are
   * @param engines makes the engine pool
   * @param kubernetes makes the connection to the Kubernetes API on the server's Vert.x; the server
   *     checks it at start and closes it when it stops
   * @return the server; start it once
   */
  public static SvcServer create(SvcConfig config, Mesh mesh, Function<MeterRegistry, EnginePool> engines,
      Function<Vertx, KubernetesConnection> kubernetes) {
    return new SvcServer(config, mesh, engines, Optional.of(kubernetes));
  }

  /**
   * Starts the parts in order: the health listener, the engine pool, the API listener.
   *
   * @return completes with this server once the API listens; fails with the cause when a part can't
   *     start, after stopping the parts that did
   */
  public Future<SvcServer> start() {
    HealthVerticle healthVerticle = new HealthVerticle(config.health().port(), registry, this::readiness);
    CompletableFuture<SvcServer> started = new CompletableFuture<>();
    vertx.deployVerticle(healthVerticle)
        .compose(id -> {
          health = healthVerticle;
          healthDeployment = id;
          return vertx.executeBlocking(() -> engineFactory.apply(registry));
        })
        .map(pool -> telemetry.<EnginePool>map(t -> new TracedEngines(pool, t.sdk().getTracer("svc"))).orElse(pool))
        .compose(pool -> {
          engines = pool;
          configured = new ConfigPolicies(config.policies(), pool, catalog, registry);
          return configured.start(vertx, ConfigPolicies.SCAN_PERIOD).map(pool);
        })
        .compose(pool -> startOperator().map(pool))
        .compose(pool -> {
          ApiVerticle apiVerticle = new ApiVerticle(config, mesh, pool, catalog, SHUTDOWN_GRACE, registry);
          return vertx.deployVerticle(apiVerticle).map(id -> {
            apiDeployment = id;
            api = apiVerticle;
            return this;
          });
        })
        .onSuccess(started::complete)
        .onFailure(failure -> stop().onComplete(stopped -> started.completeExceptionally(failure)));
    return Future.fromCompletionStage(started);
  }

  // Start-up steps 4 and 6: the API answers and serves sign-ins; the operator runs for the Lease.
  private Future<Void> startOperator() {
    if (kubernetesFactory.isEmpty()) {
      return Future.succeededFuture();
    }
    kubernetes = kubernetesFactory.get().apply(vertx);
    return kubernetes.check().compose(checked -> {
      String namespace = config.operator().namespace();
      // operator.allowedRoles (O9) joins SvcConfig on another branch; until then any role may be bound.
      OperatorVerticle verticle = new OperatorVerticle(kubernetes.client(), OperatorSettings.of(namespace, Set.of()),
          LeaseSettings.fromEnvironment(namespace), registry,
          telemetry.map(t -> t.sdk().getTracer("svc")).orElse(OpenTelemetry.noop().getTracer("svc")));
      return vertx.deployVerticle(verticle).map(id -> {
        operatorDeployment = id;
        operator = verticle;
        return null;
      });
    });
  }

  // The first check that fails names the reason (spec §9); ready, the mesh's state does.
  private Readiness readiness() {
    MeshStatus status = mesh.status();
    if (!status.running()) {
      return new Readiness(false, status.reason());
    }
    if (engines == null) {
      return new Readiness(false, "policy engine not started");
    }
    if (kubernetesFactory.isPresent()) {
      OperatorVerticle running = operator;
      Readiness operatorReady = running == null ? new Readiness(false, "operator not started") : running.readiness();
      if (!operatorReady.ready()) {
        return operatorReady;
      }
    }
    if (api == null) {
      return new Readiness(false, "API listener not bound");
    }
    if (!configured.installed()) {
      return new Readiness(false, "configured policies not installed: " + String.join(", ",
          config.policies().install().keySet().stream().filter(name -> catalog.get(name).isEmpty()).toList()));
    }
    return new Readiness(true, status.reason());
  }

  /**
   * The port the API listens on.
   *
   * @return the bound port
   * @throws IllegalStateException if the API doesn't listen yet
   */
  public int apiPort() {
    ApiVerticle listening = api;
    if (listening == null) {
      throw new IllegalStateException("the API doesn't listen yet");
    }
    return listening.port();
  }

  /**
   * The port of the health and metrics listener, which listens first.
   *
   * @return the bound port
   * @throws IllegalStateException if the health listener doesn't listen yet
   */
  public int healthPort() {
    HealthVerticle listening = health;
    if (listening == null) {
      throw new IllegalStateException("the health listener doesn't listen yet");
    }
    return listening.port();
  }

  /**
   * Stops the server: the health listener, then the API listener after its requests in flight finish
   * (for up to {@link #SHUTDOWN_GRACE}), then the engine pool, the mesh, Vert.x and the telemetry export.
   * Idempotent: later calls return the same future.
   *
   * @return completes when everything is stopped
   */
  public synchronized Future<Void> stop() {
    if (stopped == null) {
      // Completed after Vert.x is closed, so bound to no Vert.x context: its callbacks run on the
      // thread that completes it.
      CompletableFuture<Void> done = new CompletableFuture<>();
      if (configured != null) {
        configured.stop(vertx);
      }
      undeploy(healthDeployment)
          .compose(v -> undeploy(apiDeployment))
          .compose(v -> undeploy(operatorDeployment))
          .compose(v -> kubernetes == null ? Future.succeededFuture() : vertx.executeBlocking(() -> {
            kubernetes.close();
            return null;
          }))
          .compose(v -> engines == null ? Future.succeededFuture() : vertx.executeBlocking(() -> {
            engines.close();
            return null;
          }))
          .compose(v -> mesh.close())
          .onComplete(parts -> vertx.close().onComplete(closed -> {
            telemetry.ifPresent(Telemetry::close);
            registry.close();
            Throwable failure = parts.failed() ? parts.cause() : closed.cause();
            if (failure == null) {
              done.complete(null);
            } else {
              done.completeExceptionally(failure);
            }
          }));
      stopped = Future.fromCompletionStage(done);
    }
    return stopped;
  }

  private Future<Void> undeploy(String deployment) {
    return deployment == null ? Future.succeededFuture() : vertx.undeploy(deployment);
  }
}
