package dev.svc.server.access;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.svc.server.clusterinfo.ClusterInfo;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.http.ApiError;
import dev.svc.server.http.ApiErrors;
import dev.svc.server.http.ApiJson;
import dev.svc.server.http.ApiRoute;
import dev.svc.server.http.CallerAuthHandler;
import dev.svc.server.http.CallerAuthHandler.AuthorizedCaller;
import dev.svc.server.http.RouteTable;
import dev.svc.server.kube.KubernetesConnection;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.MIMEHeader;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sign-in API under {@value #BASE} (access-server spec §4): sign in, session status, kubeconfig,
 * sign out and cluster info, every route behind the auth layer, on a sub-router of its own so its
 * answers, failures included, all take the spec's shape: JSON bodies, errors as
 * {@code {message, advice, cause}} ({@link ErrorBody}), JSON 404 and 405 with {@code Allow}, and
 * {@code Retry-After} on every answer of {@code GET /kubeconfig} but a 200.
 *
 * <p>Kubernetes calls run on the connection's workers ({@link KubernetesConnection#call}); the event
 * loop only writes answers. {@code POST /login} counts its outcomes ({@code svc.login.attempts}), and
 * each endpoint is a span ({@code SvcServer.login}, ...) under the request's, its Kubernetes work one
 * ({@code SvcClient.NewSignIn}, ...) under the endpoint's.
 *
 * <p><b>Thread safety:</b> thread-safe once mounted.
 */
public final class AccessRoutes {

  /** The API's base path. */
  public static final String BASE = "/api/v1alpha1";
  static final String LOGIN = BASE + "/login";
  static final String KUBECONFIG = BASE + "/kubeconfig";
  static final String LOGOUT = BASE + "/logout";
  static final String CLUSTER_INFO = BASE + "/cluster-info";

  private static final Logger LOG = System.getLogger(AccessRoutes.class.getName());
  private static final ObjectMapper JSON = JsonMapper.builder().build();
  private static final String JSON_TYPE = "application/json; charset=utf-8";
  private static final String YAML_TYPE = "application/yaml";
  private static final Set<String> YAML_TYPES = Set.of("application/yaml", "text/yaml", "application/x-yaml");
  private static final Set<String> JSON_TYPES = Set.of("application/json", "*/*", "application/*");

  private final Signins signins;
  private final KubernetesConnection kube;
  private final SvcConfig config;
  private final ClusterInfo cluster;
  private final Buffer clusterInfoJson;
  private final Optional<Tracer> tracer;
  private final MeterRegistry registry;
  private final Map<List<String>, Counter> attempts = new ConcurrentHashMap<>();
  private final String retryAfter;
  private final RouteTable routes;

  /**
   * The API over {@code kube}.
   *
   * @param kube the Kubernetes connection
   * @param config the configuration: {@code operator.*} names and allowed roles, {@code api.retryAfterSeconds}
   * @param cluster the cluster info, read at start-up
   * @param clock the time sessions start and end by
   * @param tracer where the endpoints' spans go; empty when nothing is exported
   * @param registry where the sign-in counter goes
   */
  public AccessRoutes(KubernetesConnection kube, SvcConfig config, ClusterInfo cluster, Clock clock,
      Optional<Tracer> tracer, MeterRegistry registry) {
    this.kube = kube;
    this.config = config;
    this.cluster = cluster;
    this.signins = new Signins(kube, config.operator().namespace(), clock);
    this.tracer = tracer;
    this.registry = registry;
    this.retryAfter = Integer.toString(config.api().retryAfterSeconds());
    this.routes = new RouteTable(routes());
    try {
      // The same bytes for every caller: the cluster info is read once, at start-up.
      this.clusterInfoJson = Buffer.buffer(JSON.writeValueAsBytes(cluster));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the cluster info didn't write as JSON", e);
    }
  }

  /**
   * The routes, each declared once: the listener's {@link RouteTable} mounts them behind its guards
   * (the auth layer, then the body reader) and names requests by them.
   *
   * @return the routes under {@value #BASE}
   */
  public List<ApiRoute> routes() {
    return List.of(
        new ApiRoute(HttpMethod.POST, LOGIN, this::login),
        new ApiRoute(HttpMethod.GET, LOGIN, this::status),
        new ApiRoute(HttpMethod.GET, KUBECONFIG, this::kubeconfig),
        new ApiRoute(HttpMethod.POST, LOGOUT, this::logout),
        new ApiRoute(HttpMethod.GET, CLUSTER_INFO, this::clusterInfo));
  }

  /**
   * Answers what {@link #routes()} don't under {@value #BASE}: a path that isn't there (404) or a
   * method it doesn't take (405 with {@code Allow}), and every failure there, the auth layer's
   * included, in the spec's error body. Mount it after the routes and before the listener's own
   * failure handler, which the router would otherwise pick first.
   *
   * @param router the API listener's router
   */
  public void mountAnswers(Router router) {
    router.route(BASE + "/*").handler(this::unrouted).failureHandler(this::failed);
  }


  private void login(RoutingContext ctx) {
    AuthorizedCaller caller = ctx.get(CallerAuthHandler.CALLER);
    String role = caller.rule().role();
    Span span = span("SvcServer.login").setAttribute("login.username", caller.username())
        .setAttribute("login.role", role).setAttribute("login.period", caller.rule().period());
    List<String> allowed = config.operator().allowedRoles();
    if (!allowed.isEmpty() && !allowed.contains(role)) {
      end(span, "login.status", "forbidden", 403);
      // The metric's `forbidden` is the auth layer's refusals only; a 4xx after it counts as an error (§4.3).
      count(caller.username(), role, "error");
      ctx.fail(new AccessError(403, "Role not allowed",
          List.of("the grant of user " + caller.username() + " names the ClusterRole `" + role + "`, which this"
              + " server may not bind; ask a tailnet administrator for a grant of one of " + String.join(", ", allowed)),
          null));
      return;
    }
    answer(ctx, span, client("NewSignIn", span, () -> signins.login(caller.username(), caller.loginName(), role, caller.rule().period())),
        answer -> {
          span.setAttribute("login.valid_until", answer.until());
          end(span, "login.status", "success", 202);
          count(caller.username(), role, "success");
          writeJson(ctx, 202, answer);
        },
        failure -> {
          end(span, "login.status", "error", status(failure));
          count(caller.username(), role, "error");
        });
  }

  private void status(RoutingContext ctx) {
    AuthorizedCaller caller = ctx.get(CallerAuthHandler.CALLER);
    Span span = span("SvcServer.getLogin").setAttribute("get_login.username", caller.username());
    answer(ctx, span, client("GetSignIn", span, () -> signins.status(caller.username())),
        session -> {
          span.setAttribute("get_login.role", session.answer().role())
              .setAttribute("get_login.provisioned", session.provisioned())
              .setAttribute("get_login.valid_until", session.answer().until());
          int code = session.provisioned() ? 200 : 202;
          if (!session.provisioned()) {
            ctx.response().putHeader(HttpHeaders.RETRY_AFTER, retryAfter);
          }
          end(span, "get_login.status", session.provisioned() ? "success" : "not_ready", code);
          writeJson(ctx, code, session.answer());
        },
        failure -> end(span, "get_login.status", "error", status(failure)));
  }

  private void kubeconfig(RoutingContext ctx) {
    AuthorizedCaller caller = ctx.get(CallerAuthHandler.CALLER);
    boolean yaml = wantsYaml(ctx);
    Span span = span("SvcServer.getKubeconfig").setAttribute("kubeconfig.username", caller.username())
        .setAttribute("kubeconfig.format", yaml ? "yaml" : "json");
    answer(ctx, span, client("GetKubeconfig", span, () -> signins.token(caller.username())),
        token -> {
          if (token.token().isEmpty()) {
            end(span, "kubeconfig.status", "not_ready", 202);
            ctx.response().setStatusCode(202).putHeader(HttpHeaders.RETRY_AFTER, retryAfter).end();
            return;
          }
          Kubeconfig issued = Kubeconfig.issue(cluster, config.operator(), caller.username(), token.token().get());
          end(span, "kubeconfig.status", "success", 200);
          ctx.response().setStatusCode(200)
              .putHeader(HttpHeaders.CONTENT_TYPE, yaml ? YAML_TYPE : JSON_TYPE)
              .end(Buffer.buffer(yaml ? issued.yaml() : issued.json()));
        },
        failure -> end(span, "kubeconfig.status", "error", status(failure)));
  }

  private void logout(RoutingContext ctx) {
    AuthorizedCaller caller = ctx.get(CallerAuthHandler.CALLER);
    Span span = span("SvcServer.logout").setAttribute("logout.username", caller.username());
    Signins.LogoutSteps steps = new Signins.LogoutSteps();
    answer(ctx, span, client("DeleteSignIn", span, () -> signins.logout(caller.username(), steps)),
        answer -> {
          span.setAttribute("logout.role", answer.role()).setAttribute("logout.was_provisioned",
              steps.wasProvisioned().orElseThrow());
          end(span, "logout.status", steps.status(), 200);
          writeJson(ctx, 200, answer);
        },
        failure -> {
          steps.wasProvisioned().ifPresent(provisioned -> span.setAttribute("logout.was_provisioned", provisioned));
          end(span, "logout.status", steps.status(), status(failure));
        });
  }

  private void clusterInfo(RoutingContext ctx) {
    Span span = span("SvcServer.getClusterInfo");
    span.end();
    ctx.response().setStatusCode(200).putHeader(HttpHeaders.CONTENT_TYPE, JSON_TYPE).end(clusterInfoJson);
  }

  // Completes a request with the result of a Kubernetes call; a failure goes to the failure handler.
  private static <T> void answer(RoutingContext ctx, Span span, Future<T> call, Handler<T> success,
      Handler<Throwable> failure) {
    call.onComplete(done -> {
      if (done.succeeded()) {
        success.handle(done.result());
      } else {
        span.recordException(done.cause());
        failure.handle(done.cause());
        ctx.fail(done.cause());
      }
    });
  }

  // `Accept` naming a YAML type, or a list preferring one, asks for YAML; anything else gets JSON.
  static boolean wantsYaml(RoutingContext ctx) {
    for (MIMEHeader type : ctx.parsedHeaders().accept()) {
      String value = type.component() + "/" + type.subComponent();
      if (YAML_TYPES.contains(value)) {
        return true;
      }
      if (JSON_TYPES.contains(value)) {
        return false;
      }
    }
    return false;
  }

  // The sub-router's last route: its path exists with other methods (405), or not at all (404).
  private void unrouted(RoutingContext ctx) {
    String allowed = routes.methodsAt(ctx.normalizedPath());
    if (allowed.isEmpty()) {
      ctx.fail(new AccessError(404, "Not found", List.of("the API's routes are " + String.join(", ",
          routes.readablePaths())), null));
    } else {
      ctx.response().putHeader(HttpHeaders.ALLOW, allowed);
      ctx.fail(new AccessError(405, ctx.request().method() + " isn't a method of " + ctx.normalizedPath(),
          List.of("use " + allowed), null));
    }
  }

  private void failed(RoutingContext ctx) {
    if (!ApiJson.canStillAnswer(ctx)) {
      return;
    }
    HttpServerResponse response = ctx.response();
    AccessError error = error(ctx);
    if (ctx.normalizedPath().equals(KUBECONFIG)) {
      response.putHeader(HttpHeaders.RETRY_AFTER, retryAfter);
    }
    writeJson(ctx, error.status(), ErrorBody.of(error));
  }

  private AccessError error(RoutingContext ctx) {
    Throwable failure = ApiErrors.refusedBeforeRouting(ctx).map(Throwable.class::cast).orElse(ctx.failure());
    if (failure instanceof AccessError e) {
      return e;
    }
    if (failure instanceof ApiError e) {
      // The auth layer's refusals; a refused sign-in counts as forbidden (spec §4.3).
      if (e.status() == 403 && ctx.request().method() == HttpMethod.POST && ctx.normalizedPath().equals(LOGIN)) {
        count("unknown", "unknown", "forbidden");
      }
      return new AccessError(e.status(), e.getMessage(), List.of(e.help()), e.getCause());
    }
    if (failure == null) {
      int code = ctx.statusCode() < 400 ? 500 : ctx.statusCode();
      return new AccessError(code, "the request failed with status " + code, List.of("see the server's log"), null);
    }
    LOG.log(Level.ERROR, "handling " + ctx.request().method() + " " + ctx.request().path() + " failed", failure);
    return new AccessError(500, "the server failed while handling the request",
        List.of("this is a bug in svc; please report it with the server's log"), failure);
  }

  private static int status(Throwable failure) {
    return failure instanceof AccessError e ? e.status() : 500;
  }

  private void count(String username, String role, String outcome) {
    attempts.computeIfAbsent(List.of(username, role, outcome), key -> Counter.builder("svc.login.attempts")
        .description("sign-in attempts (POST /login) by user, role and outcome")
        .tag("username", username).tag("cluster_role", role).tag("outcome", outcome)
        .register(registry)).increment();
  }

  // Without export there is no span, nor a request span to read: Vert.x keeps none without tracing.
  private Span span(String name) {
    return span(name, Context.current());
  }

  private Span span(String name, Context parent) {
    return tracer.map(t -> t.spanBuilder(name).setParent(parent).startSpan()).orElse(Span.getInvalid());
  }

  // An endpoint's Kubernetes work on the connection's workers, as the span SvcClient.<operation> under
  // the endpoint's (spec §10.3): its name and, when it fails, the failure; no attributes.
  private <T> Future<T> client(String operation, Span endpoint, Callable<T> call) {
    Span span = span("SvcClient." + operation, Context.current().with(endpoint));
    return kube.call(call).andThen(done -> {
      if (done.failed()) {
        span.recordException(done.cause());
        span.setStatus(StatusCode.ERROR, String.valueOf(done.cause().getMessage()));
      }
      span.end();
    });
  }

  private static void end(Span span, String statusKey, String status, int httpStatus) {
    span.setAttribute(statusKey, status);
    span.setAttribute(AttributeKey.longKey(statusKey.substring(0, statusKey.indexOf('.')) + ".http_status"), httpStatus);
    if (httpStatus >= 400) {
      span.setStatus(StatusCode.ERROR, status);
    }
    span.end();
  }

  private static void writeJson(RoutingContext ctx, int status, Object body) {
    Buffer json;
    try {
      json = Buffer.buffer(JSON.writeValueAsBytes(body));
    } catch (JsonProcessingException e) {
      ctx.fail(e);
      return;
    }
    ctx.response().setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, JSON_TYPE).end(json);
  }
}
