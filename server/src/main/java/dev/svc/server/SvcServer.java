package dev.svc.server;

import dev.svc.server.access.AccessRoutes;
import dev.svc.server.clusterinfo.ClusterInfoSource;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.engine.ConfigPolicies;
import dev.svc.server.engine.EnginePool;
import dev.svc.server.engine.PolicyCatalog;
import dev.svc.server.engine.SupervisedEngines;
import dev.svc.server.health.HealthVerticle;
import dev.svc.server.health.Liveness;
import dev.svc.server.kube.EmbeddedCluster;
import dev.svc.server.kube.KubernetesConnection;
import dev.svc.server.health.Readiness;
import dev.svc.server.mesh.DevMesh;
import dev.svc.server.mesh.Mesh;
import dev.svc.server.mesh.MeshStatus;
import dev.svc.server.mesh.tailnet.NodeLogin;
import dev.svc.server.mesh.tailnet.TailnetMesh;
import dev.svc.server.mesh.tailnet.TailscaledProcess;
import dev.svc.server.operator.LeaseSettings;
import dev.svc.server.operator.OperatorSettings;
import dev.svc.server.operator.OperatorVerticle;
import dev.svc.server.telemetry.Telemetry;
import dev.svc.server.telemetry.TracedEngines;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.OpenTelemetry;
import io.vertx.core.AsyncResult;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.micrometer.MetricsDomain;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.tracing.opentelemetry.OpenTelemetryOptions;
import io.vertx.tracing.opentelemetry.OpenTelemetryTracingFactory;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code svc serve}: the server as one object. Starting it builds Vert.x with Micrometer metrics (and
 * OpenTelemetry tracing when {@code otel.endpoint} is set), then, in order (access-server spec §1.3), the
 * health listener (so probes answer while the rest comes up), the Kubernetes connection (the cluster's,
 * or an embedded stand-in with {@code kubernetes.mode: embedded}) and its check, the cluster info, the
 * engine pool, the operator on that cluster, and the API listener on the mesh. Stopping goes the other way (§1.4): the health
 * listener, then the API listener, which lets requests in flight finish for up to
 * {@link #SHUTDOWN_GRACE}, then the operator, the pool, the Kubernetes connection, the mesh, Vert.x and the telemetry
 * export, which flushes what is pending.
 *
 * <pre>{@code
 * SvcServer.start(ConfigLoader.load(sources))
 *     .onSuccess(server -> Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop())));
 * }</pre>
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class SvcServer {

  private static final Logger LOG = System.getLogger(SvcServer.class.getName());

  /** How long requests in flight may take to finish once the server stops. */
  public static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(30);

  /**
   * The API's listeners, each on an event loop of its own: one per processor, so the HTTP work of the
   * requests runs on every core rather than queueing on one loop. {@link #EVENT_LOOPS_PROPERTY} sets
   * another count.
   */
  static final int API_EVENT_LOOPS = Runtime.getRuntime().availableProcessors();

  /**
   * The system property that sets how many event loops the API listens on, from 1 to Vert.x's event
   * loops (twice the processors), in place of {@link #API_EVENT_LOOPS}: a knob for measuring
   * ({@code scripts/load}), not a configuration key, as the spec fixes those.
   */
  static final String EVENT_LOOPS_PROPERTY = "svc.api.eventLoops";

  /** How long one Kubernetes call may take when {@code server.writeTimeout} is off. */
  static final Duration KUBERNETES_TIMEOUT = Duration.ofSeconds(10);

  /** The least time one Kubernetes call gets. */
  static final Duration MIN_KUBERNETES_TIMEOUT = Duration.ofSeconds(1);

  private final SvcConfig config;
  private final Mesh mesh;
  private final Function<MeterRegistry, EnginePool> engineFactory;
  private final PolicyCatalog catalog = new PolicyCatalog();
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Optional<Telemetry> telemetry;
  private final Vertx vertx;
  private volatile HealthVerticle health;
  private volatile String healthDeployment;
  private volatile EnginePool engines;
  private volatile ConfigPolicies configured;
  private volatile OperatorVerticle operator;
  private volatile String operatorDeployment;
  private volatile boolean operatorRuns = true;
  private volatile ApiVerticle api;
  private volatile EmbeddedCluster embedded;
  private volatile AccessRoutes access;
  private volatile KubernetesConnection kube;
  private final List<String> apiDeployments = new CopyOnWriteArrayList<>();
  private Future<Void> stopped; // guarded by this

  private SvcServer(SvcConfig config, BiFunction<Vertx, MeterRegistry, Mesh> meshFactory,
      Function<MeterRegistry, EnginePool> engineFactory, Optional<Telemetry> telemetry) {
    this.config = config;
    this.engineFactory = engineFactory;
    this.telemetry = telemetry;
    this.vertx = vertx(registry, telemetry);
    this.mesh = meshFactory.apply(vertx, registry);
  }

  /**
   * The server's Vert.x, with its metrics in {@code registry} and, with {@code telemetry}, tracing;
   * logs which network transport it runs on.
   *
   * @param registry gets Vert.x's metrics
   * @param telemetry the OpenTelemetry export, when {@code otel.endpoint} is set
   * @return the built Vert.x
   */
  static Vertx vertx(MeterRegistry registry, Optional<Telemetry> telemetry) {
    // The API counts and times its requests itself (RequestMetrics), at a fraction of the cost of
    // Vert.x's HTTP server metrics, which the spec allows in their place (access-server spec §9).
    // The only HTTP and TCP clients are the mesh's to tailscaled, whose who-is, one per API request,
    // has its own histogram (svc_mesh_whois_duration_seconds); Vert.x's client metrics (bytes read
    // and written per socket event) cost more than that and would measure it twice.
    MicrometerMetricsOptions metrics = new MicrometerMetricsOptions()
        .setEnabled(true)
        .setJvmMetricsEnabled(true)
        .setDisabledMetricsCategories(Set.of(MetricsDomain.HTTP_SERVER.toCategory(),
            MetricsDomain.HTTP_CLIENT.toCategory(), MetricsDomain.NET_CLIENT.toCategory()));
    // Netty's native epoll transport where its library loads (Linux on x86-64): fewer system calls and
    // less selector bookkeeping per read and write than Java's NIO, for the API's connections and the
    // mesh's unix-socket ones alike. Vert.x runs on NIO by itself when the library can't load.
    VertxOptions options = new VertxOptions().setPreferNativeTransport(true).setMetricsOptions(metrics);
    registerTracingContextLocal();
    VertxBuilder builder = Vertx.builder().withMetrics(new MicrometerMetricsFactory(registry));
    telemetry.ifPresent(t -> {
      options.setTracingOptions(new OpenTelemetryOptions());
      builder.withTracer(new OpenTelemetryTracingFactory(t.sdk()));
    });
    Vertx vertx = builder.with(options).build();
    LOG.log(Level.INFO, transport(vertx));
    return vertx;
  }

  // OpenTelemetry finds vertx-opentelemetry's context storage by its service loader, and that storage
  // keeps the current span in a context local OpenTelemetryTracingFactory registers as its class
  // initializes; Vert.x sizes every context's locals when an instance is built. With tracing off,
  // nothing initialized the class before the instance, and the first span lookup on an event loop (the
  // log format's, for trace_id) threw IllegalArgumentException and lost the log line.
  private static void registerTracingContextLocal() {
    try {
      Class.forName(OpenTelemetryTracingFactory.class.getName(), true, SvcServer.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("vertx-opentelemetry is not on the class path", e);
    }
  }

  /**
   * The log line that says which network transport {@code vertx} runs on.
   *
   * @param vertx a Vert.x that prefers the native transport
   * @return {@code network transport: native epoll}, or NIO with the reason the native one didn't load
   */
  static String transport(Vertx vertx) {
    if (vertx.isNativeTransportEnabled()) {
      return "network transport: native epoll";
    }
    Throwable cause = vertx.unavailableNativeTransportCause();
    return "network transport: Java NIO; native epoll is unavailable"
        + (cause == null ? "" : " (" + (cause.getMessage() == null ? cause.toString() : cause.getMessage()) + ")");
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
    return start(config, NodeLogin.fromEnvironment(System.getenv()));
  }

  /**
   * Starts the server {@code config} describes, registering its mesh node with {@code login}.
   *
   * @param config the validated configuration
   * @param login {@code MESH_AUTHKEY} and {@code MESH_FORCE_LOGIN}; unused in mesh mode dev
   * @return completes with the running server; fails with a {@link StartException} (or the cause
   *     underneath) when a part can't start, after stopping the parts that did
   */
  public static Future<SvcServer> start(SvcConfig config, NodeLogin login) {
    BiFunction<Vertx, MeterRegistry, Mesh> mesh;
    try {
      mesh = mesh(config.mesh(), login, System.getenv());
    } catch (StartException e) {
      return Future.failedFuture(e);
    }
    return create(config, mesh, registry -> SupervisedEngines.start(config.engine(), registry)).start();
  }

  /**
   * The mesh of {@code mesh.mode}, made on the server's Vert.x.
   *
   * @param config the {@code mesh.*} keys
   * @param login how the node registers
   * @param environment the process environment: {@code PATH} and the user's directories
   * @return makes the mesh
   * @throws StartException when mode managed can't find its daemon binary or use its paths
   */
  static BiFunction<Vertx, MeterRegistry, Mesh> mesh(SvcConfig.Mesh config, NodeLogin login,
      Map<String, String> environment) {
    return switch (config.mode()) {
      case DEV -> (vertx, registry) -> new DevMesh(config);
      case EXTERNAL -> (vertx, registry) -> TailnetMesh.external(vertx, config, login, registry);
      case MANAGED -> {
        TailscaledProcess child = TailscaledProcess.of(config, environment);
        yield (vertx, registry) -> TailnetMesh.managed(vertx, config, login, child, registry);
      }
    };
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
    return new SvcServer(config, (vertx, registry) -> mesh, engines, Telemetry.start(config.otel()));
  }

  /**
   * A server as {@link #create(SvcConfig, Mesh, Function)} makes it, exporting through {@code telemetry}
   * in place of the {@code otel.*} keys' export: for tests that keep the spans in memory.
   *
   * @param config the validated configuration
   * @param mesh where callers come from and who they are
   * @param engines makes the engine pool
   * @param telemetry the export; the server closes it when it stops
   * @return the server; start it once
   */
  static SvcServer create(SvcConfig config, Mesh mesh, Function<MeterRegistry, EnginePool> engines,
      Telemetry telemetry) {
    return new SvcServer(config, (vertx, registry) -> mesh, engines, Optional.of(telemetry));
  }

  /**
   * A server {@code config} describes on the mesh {@code mesh} makes on the server's Vert.x, with the
   * engine pool {@code engines} makes; not started yet.
   *
   * @param config the validated configuration
   * @param mesh makes the mesh on the server's Vert.x, with the server's metrics
   * @param engines makes the engine pool; the server closes it when it stops
   * @return the server; start it once
   */
  public static SvcServer create(SvcConfig config, BiFunction<Vertx, MeterRegistry, Mesh> mesh,
      Function<MeterRegistry, EnginePool> engines) {
    return new SvcServer(config, mesh, engines, Telemetry.start(config.otel()));
  }

  /**
   * Starts the parts in order: the health listener, the engine pool, the API listener.
   *
   * @return completes with this server once the API listens; fails with the cause when a part can't
   *     start, after stopping the parts that did
   */
  public Future<SvcServer> start() {
    HealthVerticle healthVerticle = new HealthVerticle(config.health().port(), registry, this::readiness,
        this::liveness, mesh::carriesMeshTraffic);
    CompletableFuture<SvcServer> started = new CompletableFuture<>();
    vertx.deployVerticle(healthVerticle)
        .compose(id -> {
          health = healthVerticle;
          healthDeployment = id;
          return connectKubernetes();
        })
        .compose(connection -> ClusterInfoSource.load(config.clusterInfo(), connection,
            Optional.ofNullable(embedded).map(EmbeddedCluster::url)))
        .compose(cluster -> {
          Optional<Tracer> tracer = telemetry.map(t -> t.sdk().getTracer("svc"));
          access = new AccessRoutes(kube, config, cluster, Clock.systemUTC(), tracer, registry);
          return vertx.executeBlocking(() -> engineFactory.apply(registry));
        })
        .map(pool -> telemetry.<EnginePool>map(t -> new TracedEngines(pool, t.sdk().getTracer("svc"))).orElse(pool))
        .compose(pool -> {
          engines = pool;
          configured = new ConfigPolicies(config.policies(), pool, catalog, registry);
          return configured.start(vertx, ConfigPolicies.SCAN_PERIOD).map(pool);
        })
        .compose(pool -> startOperator().map(pool))
        .compose(this::connectMesh)
        .onSuccess(started::complete)
        .onFailure(failure -> stop().onComplete(stopped -> started.completeExceptionally(failure)));
    return Future.fromCompletionStage(started);
  }

  // Start-up step 5 (spec §1.3): the mesh node up and the API listening on it, as the span Mesh.connect (§10.3).
  private Future<SvcServer> connectMesh(EnginePool pool) {
    Span span = telemetry.map(t -> t.sdk().getTracer("svc").spanBuilder("Mesh.connect").setNoParent().startSpan())
        .orElse(Span.getInvalid());
    Future<List<HttpServerOptions>> options = mesh.listenOptions(ApiVerticle.listenOptions(config.server()));
    return options.compose(listen -> startApi(pool, listen))
        .andThen(started -> meshConnected(span, mesh, options.succeeded() && options.result().get(0).isSsl(),
            started.map(SvcServer::apiPort)));
  }

  /**
   * Ends the span {@code Mesh.connect} (access-server spec §10.3): where callers reach the API, or,
   * when the mesh or the listener failed, the failure.
   *
   * @param span the span, started before the mesh was asked for the listener's options
   * @param mesh the mesh the API listens on
   * @param tls whether the API listens with HTTPS
   * @param boundPort the API's port, or why it doesn't listen
   */
  static void meshConnected(Span span, Mesh mesh, boolean tls, AsyncResult<Integer> boundPort) {
    if (!span.isRecording()) {
      return;
    }
    if (boundPort.succeeded()) {
      span.setAttribute("mesh.url", mesh.url(boundPort.result()))
          .setAttribute("mesh.dns_name", mesh.dnsName())
          .setAttribute("mesh.port", boundPort.result().longValue())
          .setAttribute("mesh.protocol", tls ? "https" : "http");
    } else {
      span.recordException(boundPort.cause());
      span.setStatus(StatusCode.ERROR, "the API couldn't listen on the mesh");
    }
    span.end();
  }

  // Start-up's last step: the API's listeners on the mesh, on each address the mesh names. One per
  // event loop, sharing the port: Vert.x hands each new connection to the next, so the requests
  // spread over the processors instead of queueing on one loop. Port 0 (tests) gets one listener per
  // address: each would bind a random port of its own.
  private Future<SvcServer> startApi(EnginePool pool, List<HttpServerOptions> addresses) {
    int loops;
    try {
      loops = addresses.get(0).getPort() == 0 ? 1 : apiEventLoops(System.getProperty(EVENT_LOOPS_PROPERTY));
    } catch (StartException e) {
      return Future.failedFuture(e);
    }
    List<ApiVerticle> listeners = new CopyOnWriteArrayList<>();
    Future<Void> deployed = Future.succeededFuture();
    for (HttpServerOptions options : addresses) {
      Supplier<ApiVerticle> listener = () -> {
        ApiVerticle made = new ApiVerticle(config, mesh, pool, catalog, access, SHUTDOWN_GRACE, registry, options,
            telemetry.map(t -> t.sdk().getTracer("svc")));
        listeners.add(made);
        return made;
      };
      deployed = deployed.compose(v -> vertx.deployVerticle(listener, new DeploymentOptions().setInstances(loops))
          .map(id -> {
            apiDeployments.add(id);
            return null;
          }));
    }
    return deployed.map(v -> {
      api = listeners.get(0);
      LOG.log(Level.INFO, "API listening on " + mesh.url(apiPort()) + " (mesh mode "
          + config.mesh().mode().name().toLowerCase(Locale.ROOT) + ", " + loops + " event loops"
          + (addresses.size() > 1 ? ", on " + String.join(" and ", addresses.stream().map(HttpServerOptions::getHost)
              .toList()) : "") + ")");
      return this;
    });
  }

  /**
   * How many event loops the API listens on.
   *
   * @param property the value of {@link #EVENT_LOOPS_PROPERTY}, or null when it isn't set
   * @return {@link #API_EVENT_LOOPS} when unset, else the property's count
   * @throws StartException if the property isn't a whole number from 1 to Vert.x's event loops
   */
  static int apiEventLoops(String property) {
    if (property == null) {
      return API_EVENT_LOOPS;
    }
    int most = VertxOptions.DEFAULT_EVENT_LOOP_POOL_SIZE;
    try {
      int loops = Integer.parseInt(property.strip());
      if (loops >= 1 && loops <= most) {
        return loops;
      }
    } catch (NumberFormatException e) {
      // Answered below, as a count out of range is.
    }
    throw new StartException(
        "-D" + EVENT_LOOPS_PROPERTY + " is `" + property + "`, not a number of event loops from 1 to " + most,
        "leave it out for one per processor (" + API_EVENT_LOOPS + "), or give a whole number from 1 to " + most,
        null);
  }

  // Start-up step 4: the cluster of kubernetes.mode, checked. Its calls should fail before the answer
  // waiting for them is cut off by server.writeTimeout, so they get half of it, but never less than a
  // second: a shorter write timeout then answers 503 first.
  private Future<KubernetesConnection> connectKubernetes() {
    Duration timeout = kubernetesTimeout(config.server().writeTimeout());
    Future<KubernetesConnection> connected = switch (config.kubernetes().mode()) {
      // The embedded API builds its own Vert.x, which it must not do on a thread of ours.
      case EMBEDDED -> Future.fromCompletionStage(CompletableFuture.supplyAsync(() -> {
        embedded = EmbeddedCluster.start(config.operator().namespace(), Clock.systemUTC());
        return KubernetesConnection.of(vertx, embedded.config(), timeout, "the embedded API at " + embedded.url());
      }, task -> new Thread(task, "svc-embedded-kubernetes-start").start()), vertx.getOrCreateContext());
      case CLUSTER -> vertx.executeBlocking(() -> KubernetesConnection.fromEnvironment(vertx, timeout));
    };
    return connected.compose(connection -> {
      kube = connection;
      return connection.check().map(connection);
    });
  }

  /**
   * Leaves the operator out: for component tests of the API that play the operator's part themselves,
   * writing sign-ins' status as it would. Call it before {@link #start()}.
   *
   * @return this server
   */
  SvcServer withoutOperator() {
    operatorRuns = false;
    return this;
  }

  private static Duration kubernetesTimeout(Duration writeTimeout) {
    if (writeTimeout.isZero()) {
      return KUBERNETES_TIMEOUT;
    }
    Duration half = writeTimeout.dividedBy(2);
    return half.compareTo(MIN_KUBERNETES_TIMEOUT) < 0 ? MIN_KUBERNETES_TIMEOUT : half;
  }

  // Start-up step 6: the operator on the connected cluster, which runs only while this replica holds
  // the Lease; the API starts once it leads with synced caches or has seen another replica lead.
  private Future<Void> startOperator() {
    if (!operatorRuns) {
      return Future.succeededFuture();
    }
    String namespace = config.operator().namespace();
    OperatorVerticle verticle = new OperatorVerticle(kube.client(),
        OperatorSettings.of(namespace, Set.copyOf(config.operator().allowedRoles())),
        LeaseSettings.fromEnvironment(namespace), registry,
        telemetry.map(t -> t.sdk().getTracer("svc")).orElse(OpenTelemetry.noop().getTracer("svc")));
    return vertx.deployVerticle(verticle).map(id -> {
      operatorDeployment = id;
      operator = verticle;
      return null;
    });
  }

  // Only the operator can fail for good while the process runs on (spec §9): the API's listener and
  // the engine pool recover by themselves or fail start-up.
  private Liveness liveness() {
    OperatorVerticle running = operator;
    return running == null ? Liveness.ALIVE : running.liveness();
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
    if (operatorRuns) {
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
   * The in-process Kubernetes API of {@code kubernetes.mode: embedded}, for tests that look into it.
   *
   * @return the embedded API, or null in {@code cluster} mode or before it starts
   */
  EmbeddedCluster embeddedCluster() {
    return embedded;
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
      Span span = telemetry.map(t -> t.sdk().getTracer("svc").spanBuilder("server.shutdown").setNoParent().startSpan())
          .orElse(Span.getInvalid());
      undeploy(healthDeployment)
          .andThen(health -> shutdownStep(span, "health", health))
          .compose(v -> Future.join(apiDeployments.stream().map(this::undeploy).toList()).mapEmpty())
          .compose(v -> undeploy(operatorDeployment))
          .compose(v -> engines == null ? Future.succeededFuture() : vertx.executeBlocking(() -> {
            engines.close();
            return null;
          }))
          .compose(v -> vertx.executeBlocking(() -> {
            closeKubernetes();
            return null;
          }))
          .compose(v -> mesh.close().andThen(meshClosed -> shutdownStep(span, "mesh", meshClosed)))
          .onComplete(parts -> vertx.close().onComplete(closed -> {
            span.end();
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

  // The span server.shutdown's attributes of one step (spec §10.3): shutdown.<step>_ok, and _err on failure.
  private static void shutdownStep(Span span, String step, AsyncResult<?> result) {
    span.setAttribute("shutdown." + step + "_ok", result.succeeded());
    if (result.failed()) {
      span.setAttribute("shutdown." + step + "_err", String.valueOf(result.cause().getMessage()));
      span.setStatus(StatusCode.ERROR, "stopping the " + step + " failed");
    }
  }

  private void closeKubernetes() {
    if (kube != null) {
      kube.close();
    }
    if (embedded != null) {
      embedded.close();
    }
  }

  private Future<Void> undeploy(String deployment) {
    return deployment == null ? Future.succeededFuture() : vertx.undeploy(deployment);
  }
}
