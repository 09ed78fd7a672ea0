package dev.svc.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.server.mesh.Caller;
import dev.svc.server.mesh.GrantRule;
import dev.svc.server.mesh.Mesh;
import dev.svc.server.telemetry.LogFields;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.SecurityPolicyHandler;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The auth layer of every API route (access-server spec §3.4): asks the mesh who is calling and
 * admits only a caller whose grants under {@code mesh.capName} pick one rule. The checks run in the
 * spec's order, each with its own answer:
 *
 * <ol>
 *   <li>the request came through the mesh's public ingress: 403;
 *   <li>the who-is lookup fails: 500;
 *   <li>the caller is a tagged device: 400;
 *   <li>a grant value isn't a rule: 400;
 *   <li>no rule: 403;
 *   <li>two different rules share a priority: 400 (identical rules count once);
 *   <li>the winning rule, the one of the highest priority, has no role: 400.
 * </ol>
 *
 * <p>An admitted request carries an {@link AuthorizedCaller} (username, winning rule and the full
 * login name) under {@link #CALLER}.
 * It runs before the body is read, so a refused caller costs no body (Vert.x-Web orders handlers by
 * kind, and only a security policy handler may come before the body handler).
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class CallerAuthHandler implements SecurityPolicyHandler {

  /** The routing context key of the {@link AuthorizedCaller} of an admitted request. */
  public static final String CALLER = "svc.caller";

  /** The header the mesh's public ingress (Tailscale Funnel) puts on the requests it forwards. */
  static final String FUNNEL_HEADER = "Tailscale-Funnel-Request";

  private static final Logger LOG = System.getLogger(CallerAuthHandler.class.getName());
  private static final AttributeKey<String> USERNAME = AttributeKey.stringKey("auth.username");
  private static final AttributeKey<String> REMOTE_ADDR = AttributeKey.stringKey("auth.remote_addr");
  private static final AttributeKey<String> PATH = AttributeKey.stringKey("auth.path");
  private static final AttributeKey<Boolean> SUCCESS = AttributeKey.booleanKey("auth.success");
  private static final AttributeKey<String> REJECT_REASON = AttributeKey.stringKey("auth.reject_reason");
  private static final AttributeKey<Long> STATUS_CODE = AttributeKey.longKey("auth.status_code");

  /** The advice of a failed who-is; what failed is the answer's cause (spec §3.4 row 2). */
  static final String WHOIS_ADVICE =
      "call the API over the tailnet; if you do, ask the server's operator to check its mesh node";

  /**
   * An admitted caller: who, and the rule that won.
   *
   * @param username the caller's short username
   * @param rule the caller's rule of the highest priority
   * @param loginName the caller's full login name, such as {@code dana@corp.example}
   */
  public record AuthorizedCaller(String username, GrantRule rule, String loginName) {}

  /** The last caller admitted, with the outcome: most requests come from the one the mesh answered last. */
  private record Admitted(Caller caller, AuthorizedCaller authorized) {}

  private final Mesh mesh;
  private final String capName;
  private final MeterRegistry registry;
  private final Timer whoIsDuration;
  private final Counter admitted;
  private final Map<String, Counter> rejections = new ConcurrentHashMap<>();
  // Checks 3 to 7 are a function of the caller alone; the same caller object skips them. The mesh
  // answers one object per caller for as long as its answer stays the same (the dev mesh always the
  // same one; the tailnet mesh the same one while the daemon's answer is the same, byte for byte).
  private volatile Admitted last;
  // Empty when nothing is exported: the request's auth span is then the invalid one, which records nothing.
  private final Optional<Tracer> tracer;

  /**
   * The auth layer over {@code mesh}.
   *
   * @param mesh who-is for each request
   * @param capName the capability name whose grants admit callers, {@code mesh.capName}
   * @param registry gets {@code svc_auth_requests_total{result,reason}} and the who-is latency
   *     {@code svc_mesh_whois_duration_seconds}
   * @param tracer gets a span {@code Middleware.Auth} per request (spec §10.3); empty when nothing is exported
   */
  public CallerAuthHandler(Mesh mesh, String capName, MeterRegistry registry, Optional<Tracer> tracer) {
    this.mesh = mesh;
    this.tracer = tracer;
    this.capName = capName;
    this.registry = registry;
    this.whoIsDuration = Timer.builder("svc.mesh.whois.duration")
        .description("How long the mesh's who-is lookup of an API request's caller took")
        .publishPercentileHistogram()
        .register(registry);
    this.admitted = outcome("admitted", "ok");
  }

  @Override
  public void handle(RoutingContext ctx) {
    // The connection's peer, which no header can change (nor has Vert.x-Web to parse any for it).
    SocketAddress peer = ctx.request().connection().remoteAddress();
    Span span = tracer.map(t -> t.spanBuilder("Middleware.Auth").setParent(Context.current())
        .setAttribute(REMOTE_ADDR, String.valueOf(peer))
        .setAttribute(PATH, ctx.request().path())
        .startSpan()).orElse(Span.getInvalid());
    if (ctx.request().headers().contains(FUNNEL_HEADER)) {
      reject(ctx, span, new ApiError(403, "Unauthorized request from Funnel",
          "call the API over the tailnet; the public ingress can't reach it"), "funnel_not_allowed", "");
      return;
    }
    // The body must wait for the lookup: a later BodyHandler resumes the request.
    ctx.request().pause();
    Timer.Sample lookupTime = Timer.start(registry);
    mesh.whoIs(peer).onComplete(lookup -> {
      lookupTime.stop(whoIsDuration);
      if (ctx.response().closed()) {
        // The caller left while the mesh answered: nobody is there to admit, refuse or serve.
        span.end();
        return;
      }
      if (lookup.failed()) {
        LOG.log(Level.WARNING, "who-is of " + peer + " failed", lookup.cause());
        reject(ctx, span, new ApiError(500, "Error getting WhoIs", WHOIS_ADVICE, lookup.cause()), "whois_failed", "");
        return;
      }
      AuthorizedCaller caller;
      try {
        caller = admit(lookup.result());
      } catch (Rejection r) {
        reject(ctx, span, r.error, r.reason, lookup.result().username());
        return;
      }
      span.setAttribute(USERNAME, caller.username()).setAttribute(SUCCESS, true).end();
      ctx.put(CALLER, caller);
      admitted.increment();
      ctx.next();
    });
  }

  private AuthorizedCaller admit(Caller caller) {
    Admitted known = last;
    if (known != null && known.caller() == caller) {
      return known.authorized();
    }
    AuthorizedCaller authorized = authorize(caller, capName);
    last = new Admitted(caller, authorized);
    return authorized;
  }

  // The username is empty when the mesh wasn't asked (public ingress) or didn't answer.
  private void reject(RoutingContext ctx, Span span, ApiError error, String reason, String username) {
    rejections.computeIfAbsent(reason, r -> outcome("rejected", r)).increment();
    span.setAttribute(USERNAME, username).setAttribute(SUCCESS, false)
        .setAttribute(REJECT_REASON, reason).setAttribute(STATUS_CODE, error.status())
        .setStatus(StatusCode.ERROR, error.getMessage())
        .end();
    LOG.log(Level.WARNING, "auth rejected",
        LogFields.of("username", username, "reject_reason", reason, "status_code", error.status()));
    ctx.fail(error);
  }

  /** The counter of one outcome; looked up once, as registering costs a map lookup and a tag sort. */
  private Counter outcome(String result, String reason) {
    return Counter.builder("svc.auth.requests")
        .description("API requests by admission outcome and the reason of a rejection")
        .tag("result", result)
        .tag("reason", reason)
        .register(registry);
  }

  /** A refused caller: the answer, and the reason as a word for logs and spans. */
  static final class Rejection extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient ApiError error;
    final String reason;

    Rejection(ApiError error, String reason) {
      super(error.getMessage(), null, false, false);
      this.error = error;
      this.reason = reason;
    }
  }

  /**
   * Checks 3 to 7 of the class comment for {@code caller}.
   *
   * @throws Rejection with the answer of the first check that fails
   */
  static AuthorizedCaller authorize(Caller caller, String capName) {
    if (!caller.tags().isEmpty()) {
      throw new Rejection(new ApiError(400, "tagged nodes not (yet) supported",
          "call from a device signed in as a person; tagged devices such as " + caller.tags() + " aren't admitted"),
          "tagged_node_not_allowed");
    }
    List<GrantRule> rules = new ArrayList<>();
    for (JsonNode value : caller.grants(capName)) {
      try {
        rules.add(GrantRule.decode(value));
      } catch (IllegalArgumentException e) {
        throw new Rejection(new ApiError(400, "Error unmarshaling api capability map",
            "check the grant syntax of `" + capName + "` for user " + caller.username(), e),
            "capability_unmarshal_failed");
      }
    }
    if (rules.isEmpty()) {
      throw new Rejection(new ApiError(403, "User not authorized",
          "ask a tailnet administrator to grant " + caller.username() + " the capability `" + capName + "`"),
          "no_capability_rules");
    }
    Set<GrantRule> distinct = new LinkedHashSet<>(rules);
    Set<Long> priorities = new HashSet<>();
    for (GrantRule rule : distinct) {
      if (!priorities.add(rule.priority())) {
        throw new Rejection(new ApiError(400, "Multiple capability rules with the same priority found",
            "give every rule of `" + capName + "` for user " + caller.username() + " a distinct priority; "
                + rule.priority() + " is given twice"),
            "duplicate_priority_rules");
      }
    }
    GrantRule winner = distinct.stream().max(Comparator.comparingLong(GrantRule::priority)).orElseThrow();
    if (winner.role().isEmpty()) {
      throw new Rejection(new ApiError(400, "Capability rule has no role",
          "give the rule of priority " + winner.priority() + " of `" + capName + "` a role: the ClusterRole to bind"),
          "empty_role");
    }
    return new AuthorizedCaller(caller.username(), winner, caller.loginName());
  }
}
