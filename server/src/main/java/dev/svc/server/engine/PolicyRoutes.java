package dev.svc.server.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.svc.engine.CompileOptions;
import dev.svc.engine.Diagnostic;
import dev.svc.engine.EvalOptions;
import dev.svc.engine.Explanation;
import dev.svc.engine.NoPolicyException;
import dev.svc.engine.Policy;
import dev.svc.engine.SourceFile;
import dev.svc.server.config.GoDuration;
import dev.svc.server.config.PolicyNames;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.http.ApiError;
import dev.svc.server.http.ApiJson;
import dev.svc.server.http.ApiRoute;
import dev.svc.server.http.HttpTimeouts;
import dev.svc.supervisor.Lane;
import dev.svc.supervisor.Pool;
import io.netty.channel.EventLoop;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.internal.ContextInternal;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The named policies of the server's pool over HTTP. Bodies use the engine's field names (module ABI
 * §4) without {@code op}:
 *
 * <ul>
 *   <li>{@code PUT /api/v1/policies/{name}}: {@code files} (required), {@code trusted_files},
 *       {@code policy} (the root, when the files hold several), {@code require}; compiles into every
 *       instance and answers {@code {name, policy, diagnostics}}, 201 when new, 200 when it replaced
 *       one. The engine's refusal is 422 with its message, help and diagnostics. An install not done
 *       within {@code server.writeTimeout} is never a 503 that installs later: still waiting or
 *       compiling in the first instance, it is given up (503, nothing changed); serving already and
 *       being copied into the other instances, it is 202 with its {@code Location}.
 *   <li>{@code GET /api/v1/policies}: {@code {"policies": [...]}}, sorted by name, each with its
 *       {@code source} ({@code api} or {@code config}) and a configured one's {@code reload_failure}.
 *   <li>{@code GET /api/v1/policies/{name}}: the entry with the policy's {@code explanation}.
 *   <li>{@code DELETE /api/v1/policies/{name}}: 204.
 *   <li>{@code POST /api/v1/policies/{name}/eval}: {@code input} (required), {@code timeout_ms}
 *       (optional, a whole number from 1 to {@code engine.maxEvalTimeout}; default
 *       {@code engine.evalTimeout}); runs in the lane of evaluations, which nothing slow waits in, or,
 *       with {@code engine.loopEvalBudget} set, a body of at most {@value #LOOP_EVAL_BODY} bytes on
 *       the event loop when the loop is lightly loaded ({@link LoopTurns}) and an instance is idle,
 *       for that budget at most, and past it in the lane with
 *       the rest of its timeout; answers the eval record exactly as the engine wrote it (tooling spec
 *       §6.2), the same either way. A failed evaluation is a record with {@code error}, answered 200.
 * </ul>
 *
 * <p>A name that isn't one of {@link PolicyNames} is 400 on every route. A name nothing is installed
 * under is 404, its help listing the installed names.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class PolicyRoutes {

  /** The path of the policy list. */
  public static final String POLICIES = "/api/v1/policies";
  /** The path of one policy. */
  public static final String POLICY = POLICIES + "/:name";
  /** The path of a policy's evaluations. */
  public static final String EVAL = POLICY + "/eval";

  /**
   * The largest eval body whose evaluation may run on the event loop: the engine decodes the input
   * without checking its deadline, so the time a body takes there must stay small whatever the policy.
   */
  static final int LOOP_EVAL_BODY = 16 << 10;

  // The least timeout of an evaluation moved off the loop: the engine counts its timeout in milliseconds.
  private static final Duration MIN_REST = Duration.ofMillis(1);

  private static final String INSTALL_EXAMPLE =
      "{\"files\": [{\"path\": \"access/main.sigil\", \"source\": \"...\"}], \"policy\": \"access.main\"}";

  /** The body of {@code PUT /api/v1/policies/{name}}. */
  record InstallRequest(
      @JsonProperty("files") List<EngineRoutes.FileBody> files,
      @JsonProperty("trusted_files") List<EngineRoutes.FileBody> trustedFiles,
      @JsonProperty("policy") String policy,
      @JsonProperty("require") List<String> require) {}

  /** The answer of a successful install. */
  record InstallResult(
      @JsonProperty("name") String name,
      @JsonProperty("policy") String policy,
      @JsonProperty("diagnostics") List<Diagnostic> diagnostics) {}

  /** The answer of {@code GET /api/v1/policies}. */
  record ListResult(@JsonProperty("policies") List<PolicyCatalog.Entry> policies) {}

  /** The answer of {@code GET /api/v1/policies/{name}}. */
  @JsonInclude(JsonInclude.Include.NON_ABSENT)
  record PolicyResult(
      @JsonProperty("name") String name,
      @JsonProperty("policy") String policy,
      @JsonProperty("diagnostics") List<Diagnostic> diagnostics,
      @JsonProperty("source") PolicyCatalog.Source source,
      @JsonProperty("reload_failure") Optional<String> reloadFailure,
      @JsonProperty("explanation") Explanation explanation) {}

  private final EnginePool engines;
  private final PolicyCatalog catalog;
  private final EvalOptions defaultEvalOptions;
  private final Duration maxEvalTimeout;
  private final Duration loopEvalBudget;
  private final LoopTurns loopTurns = new LoopTurns();

  /**
   * The routes over {@code engines}' pool.
   *
   * @param engines where the operations run
   * @param catalog the installed policies
   * @param engine the {@code engine.*} keys: the timeout of an evaluation that names none (zero for
   *     none), the largest one it may name, and the budget of an evaluation on the event loop (zero
   *     for none there)
   */
  public PolicyRoutes(EnginePool engines, PolicyCatalog catalog, SvcConfig.Engine engine) {
    this.engines = engines;
    this.catalog = catalog;
    // Built once: nearly every evaluation names no timeout.
    this.defaultEvalOptions = engine.evalTimeout().isZero()
        ? EvalOptions.defaults() : EvalOptions.defaults().withTimeout(engine.evalTimeout());
    this.maxEvalTimeout = engine.maxEvalTimeout();
    this.loopEvalBudget = engine.loopEvalBudgetInEffect();
  }

  /**
   * {@code api}, counting each request toward its event loop's turn first ({@link LoopTurns}): a loop
   * busy reading requests then hands evaluations to the lane though they start turns later, behind
   * the caller's admission. {@code api} itself when no evaluation runs on an event loop.
   *
   * @param api the API's request handler, its router
   * @return the handler for the API's listener
   */
  public Handler<HttpServerRequest> countingTurns(Handler<HttpServerRequest> api) {
    if (loopEvalBudget.isZero()) {
      return api;
    }
    return request -> {
      EventLoop loop = ((ContextInternal) Vertx.currentContext()).nettyEventLoop();
      if (loop.inEventLoop()) {
        loopTurns.requestRead(loop);
      }
      api.handle(request);
    };
  }

  /**
   * The routes, for a {@link dev.svc.server.http.RouteTable}: evaluations first, since they are nearly
   * all the traffic.
   *
   * @return the routes
   */
  public List<ApiRoute> routes() {
    return List.of(
        new ApiRoute(HttpMethod.POST, EVAL, this::eval),
        new ApiRoute(HttpMethod.GET, POLICIES, this::list),
        new ApiRoute(HttpMethod.PUT, POLICY, this::install),
        new ApiRoute(HttpMethod.GET, POLICY, this::get),
        new ApiRoute(HttpMethod.DELETE, POLICY, this::delete));
  }

  private void list(RoutingContext ctx) {
    ApiJson.write(ctx, 200, new ListResult(catalog.list()));
  }

  private void install(RoutingContext ctx) {
    String name = policyName(ctx);
    InstallRequest body = ApiJson.read(ctx, InstallRequest.class, INSTALL_EXAMPLE);
    List<SourceFile> files = EngineRoutes.sourceFiles(body.files(), "files", "file");
    if (files.isEmpty()) {
      throw new ApiError(400, "install needs files", "send " + INSTALL_EXAMPLE);
    }
    CompileOptions options = CompileOptions.defaults()
        .withTrustedFiles(EngineRoutes.sourceFiles(body.trustedFiles(), "trusted_files", "trusted file"));
    if (body.policy() != null) {
      options = options.withPolicy(body.policy());
    }
    for (String required : Objects.requireNonNullElse(body.require(), List.<String>of())) {
      if (required == null) {
        throw new ApiError(400, "`require` holds null", "write required policy names as strings, such as \"base.audit\"");
      }
      options = options.withRequired(required);
    }
    CompileOptions compile = options;
    PendingInstall pending = new PendingInstall();
    HttpTimeouts.LateAnswer late = (lateCtx, timeout) -> lateInstall(lateCtx, timeout, name, pending);
    ctx.put(HttpTimeouts.LATE_ANSWER, late);
    EngineRoutes.respond(ctx, engines, Lane.OPERATIONS, "install",
        pool -> catalog.install(pool, name, files, compile, PolicyCatalog.Source.API, pending),
        (done, installed) -> ApiJson.write(done, installed.replaced() ? 200 : 201, installResult(installed)));
  }

  // An install still waiting or compiling is given up, and changes nothing; one that committed serves
  // already and is being copied into the other instances: 202, and its entry says what serves.
  private static void lateInstall(RoutingContext ctx, ApiError timeout, String name, PendingInstall pending) {
    if (pending.abandon()) {
      ctx.fail(new ApiError(503, timeout.getMessage() + ", so nothing was installed under `" + name + "`",
          "nothing changed; try again later, or with fewer or smaller files"));
      return;
    }
    ctx.response().putHeader(HttpHeaders.LOCATION, POLICIES + "/" + name);
    ApiJson.write(ctx, 202, installResult(pending.committed().orElseThrow()));
  }

  private static InstallResult installResult(PolicyCatalog.Installed installed) {
    PolicyCatalog.Entry entry = installed.entry();
    return new InstallResult(entry.name(), entry.policy(), entry.diagnostics());
  }

  private void get(RoutingContext ctx) {
    String name = policyName(ctx);
    PolicyCatalog.Entry entry = catalog.get(name).orElseThrow(() -> unknown(name));
    EngineRoutes.run(ctx, engines, "explain policy", pool -> new PolicyResult(entry.name(), entry.policy(), entry.diagnostics(),
        entry.source(), entry.reloadFailure(), pool.withPolicy(name, Policy::explain)));
  }

  private void delete(RoutingContext ctx) {
    String name = policyName(ctx);
    EngineRoutes.respond(ctx, engines, Lane.OPERATIONS, "remove", pool -> catalog.remove(pool, name),
        (done, removed) -> {
          if (removed) {
            done.response().setStatusCode(204).end();
          } else {
            done.fail(unknown(name));
          }
        });
  }

  // On the event loop when it's quick (engine.loopEvalBudget) and the loop lightly loaded (LoopTurns):
  // an evaluation may take less time than handing it to a pool thread and its answer back. Otherwise,
  // and after an attempt there that gave way, in the lane of evaluations.
  private void eval(RoutingContext ctx) {
    String name = policyName(ctx);
    EvalBody body = EvalBody.read(ctx);
    EvalOptions options = traced(evalOptions(body.timeoutMs()), body.trace().or(() -> traceParam(ctx)));
    ContextInternal request = (ContextInternal) ctx.vertx().getOrCreateContext();
    EventLoop loop = request.nettyEventLoop();
    if (loopEvalBudget.isZero() || ctx.body().length() > LOOP_EVAL_BODY || !loop.inEventLoop()) {
      inLane(ctx, name, body.input(), options);
      return;
    }
    boolean queued = loopTurns.submit(loop, new LoopTurns.Evaluation() {
      @Override
      public void onLoop() {
        afterTurn(request, ctx, () -> evalOnLoop(ctx, name, body.input(), options));
      }

      @Override
      public void inLane() {
        afterTurn(request, ctx, () -> PolicyRoutes.this.inLane(ctx, name, body.input(), options));
      }
    });
    if (!queued) {
      inLane(ctx, name, body.input(), options);
    }
  }

  // An evaluation started after the event loop's turn, outside the router's handler: in the request's
  // own context again (a tail task runs in none: its span would be lost, and its answer handed to a
  // context made up anew), failing the request as the router would; skipped when the request was
  // answered (a timeout) or its client left meanwhile.
  private static void afterTurn(ContextInternal request, RoutingContext ctx, Runnable evaluation) {
    if (ctx.response().ended() || ctx.response().closed()) {
      return;
    }
    request.dispatch(() -> {
      try {
        evaluation.run();
      } catch (RuntimeException e) {
        EngineRoutes.fail(ctx, "eval", e);
      }
    });
  }

  // Ahead of the lane when an instance is idle; past the budget, or without an instance, the lane
  // takes it with the rest of its timeout.
  private void evalOnLoop(RoutingContext ctx, String name, Object input, EvalOptions options) {
    long start = System.nanoTime();
    Optional<byte[]> now;
    try {
      now = onLoop(name, input, options);
    } catch (RuntimeException e) {
      EngineRoutes.fail(ctx, "eval", e);
      return;
    }
    if (now.isPresent()) {
      answer(ctx, now.get());
    } else {
      inLane(ctx, name, input, remaining(options, Duration.ofNanos(System.nanoTime() - start)));
    }
  }

  private Optional<byte[]> onLoop(String name, Object input, EvalOptions options) {
    try {
      return engines.tryEvaluateJson(name, input, options, loopEvalBudget);
    } catch (NoPolicyException e) {
      throw unknown(name);
    }
  }

  private void inLane(RoutingContext ctx, String name, Object input, EvalOptions options) {
    EngineRoutes.respond(ctx, engines, Lane.EVALUATIONS, "eval", pool -> evaluate(pool, name, input, options),
        PolicyRoutes::answer);
  }

  // An evaluation moved off the loop after its attempt there has the rest of its own timeout.
  private static EvalOptions remaining(EvalOptions options, Duration spent) {
    return options.timeout().map(timeout -> {
      Duration rest = timeout.minus(spent);
      return options.withTimeout(rest.compareTo(MIN_REST) > 0 ? rest : MIN_REST);
    }).orElse(options);
  }

  private static void answer(RoutingContext ctx, byte[] record) {
    ctx.response()
        .setStatusCode(200)
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json; charset=utf-8")
        .end(Buffer.buffer(record));
  }

  private byte[] evaluate(Pool pool, String name, Object input, EvalOptions options) {
    try {
      return pool.evaluateJson(name, input, options);
    } catch (NoPolicyException e) {
      throw unknown(name);
    }
  }

  private EvalOptions evalOptions(Optional<Long> timeout) {
    if (timeout.isEmpty()) {
      return defaultEvalOptions;
    }
    long timeoutMs = timeout.get();
    if (timeoutMs <= 0) {
      throw new ApiError(400, "`timeout_ms` is " + timeoutMs + ", not a positive number of milliseconds",
          "leave it out for the server's default, or give a positive whole number such as 100");
    }
    if (timeoutMs > maxEvalTimeout.toMillis()) {
      throw new ApiError(400, "`timeout_ms` is " + timeoutMs + ", more than engine.maxEvalTimeout ("
          + GoDuration.format(maxEvalTimeout) + ")",
          "ask for at most " + maxEvalTimeout.toMillis() + ", or leave it out for the server's default");
    }
    return EvalOptions.defaults().withTimeout(Duration.ofMillis(timeoutMs));
  }

  // The engine's lighter answer leaves the trace out when the client says so; by default, and with
  // `true`, the record is the reference's.
  private static EvalOptions traced(EvalOptions options, Optional<Boolean> trace) {
    return trace.orElse(true) ? options : options.withoutTrace();
  }

  // `?trace=false` (or `true`), for a client that can't change the body; the body's `trace` wins.
  private static Optional<Boolean> traceParam(RoutingContext ctx) {
    if (ctx.request().query() == null) {
      // No query to decode, as with nearly every evaluation.
      return Optional.empty();
    }
    List<String> values = ctx.queryParam("trace");
    if (values.isEmpty()) {
      return Optional.empty();
    }
    String value = values.get(values.size() - 1);
    if (values.size() > 1 || !(value.equals("true") || value.equals("false"))) {
      throw new ApiError(400, "the query's `trace` is `" + String.join("&", values) + "`, not true or false",
          "give it once, as ?trace=false for the record without its trace, or leave it out");
    }
    return Optional.of(value.equals("true"));
  }

  // The path's name, checked before anything looks it up.
  private static String policyName(RoutingContext ctx) {
    String name = ctx.pathParam("name");
    if (!PolicyNames.valid(name)) {
      throw new ApiError(400, "`" + PolicyNames.printable(name) + "` isn't a policy name", PolicyNames.HELP);
    }
    return name;
  }

  private ApiError unknown(String name) {
    List<String> names = catalog.names();
    return new ApiError(404, "no policy is installed under `" + name + "`",
        names.isEmpty()
            ? "install one with PUT " + POLICIES + "/" + name
            : "the installed policies are " + String.join(", ", names));
  }
}
