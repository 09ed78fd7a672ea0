package dev.svc.server.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.svc.engine.BusyException;
import dev.svc.engine.Diagnostic;
import dev.svc.engine.EngineException;
import dev.svc.engine.NoPolicyException;
import dev.svc.engine.StoppedException;
import dev.svc.engine.TimeoutException;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.internal.http.HttpServerRequestInternal;
import io.vertx.ext.web.RoutingContext;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Optional;

/**
 * The one place a failure becomes an HTTP answer: a JSON body {@code {"message": ..., "help": ...}},
 * with {@code diagnostics} when the engine gave some, and the status for what failed.
 *
 * <table>
 *   <caption>Failures and their answers</caption>
 *   <tr><th>Failure</th><th>Status</th></tr>
 *   <tr><td>{@link ApiError}</td><td>its own; a 503 with {@code Retry-After}</td></tr>
 *   <tr><td>{@link EngineException}: the engine refused the request</td><td>422</td></tr>
 *   <tr><td>{@link NoPolicyException}: nothing is installed under the name</td><td>404</td></tr>
 *   <tr><td>{@link BusyException}: every engine instance stayed busy</td><td>503, with {@code Retry-After}</td></tr>
 *   <tr><td>{@link TimeoutException}: the call ran past its hard deadline and its instance was stopped
 *       (the supervisor builds a new one)</td><td>504</td></tr>
 *   <tr><td>{@link StoppedException}: the engine instance stopped otherwise (a trap)</td><td>500</td></tr>
 *   <tr><td>{@link dev.svc.engine.MemoryLimitException}: the call needed more than
 *       {@code engine.maxMemory}; the engine's routes answer it as an {@link ApiError}</td><td>413</td></tr>
 *   <tr><td>no route, wrong method, body too large</td><td>404, 405 (with {@code Allow}), 413</td></tr>
 *   <tr><td>an HTTP/1.1 request without a valid {@code Host} header, which Vert.x-Web refuses before
 *       any route</td><td>400</td></tr>
 *   <tr><td>anything else: a bug in svc, logged</td><td>500</td></tr>
 * </table>
 *
 * <p>Register it as the router's failure handler and as its handler of 404 and 405.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class ApiErrors implements Handler<RoutingContext> {

  private static final Logger LOG = System.getLogger(ApiErrors.class.getName());

  /** The body of every error answer. */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  record ErrorBody(
      @JsonProperty("message") String message,
      @JsonProperty("help") String help,
      @JsonProperty("diagnostics") List<Diagnostic> diagnostics) {}

  private final long bodyLimit;
  private final RouteTable routes;
  private final int retryAfterSeconds;

  /**
   * The error answers of a router.
   *
   * @param bodyLimit the most bytes a request body may have, to name in the answer of 413
   * @param routes the paths and methods of the routes, for the answers of 404 and 405
   * @param retryAfterSeconds the {@code Retry-After} of a 503
   */
  public ApiErrors(long bodyLimit, RouteTable routes, int retryAfterSeconds) {
    this.bodyLimit = bodyLimit;
    this.routes = routes;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  @Override
  public void handle(RoutingContext ctx) {
    if (!ApiJson.canStillAnswer(ctx)) {
      return;
    }
    Throwable failure = refusedBeforeRouting(ctx).map(Throwable.class::cast).orElse(ctx.failure());
    if (failure instanceof ApiError e) {
      if (e.status() == 503) {
        ctx.response().putHeader("Retry-After", Integer.toString(retryAfterSeconds));
      }
      answer(ctx, e.status(), e.getMessage(), helpWithCause(e), List.of());
    } else if (failure instanceof EngineException e) {
      answer(ctx, 422, e.message(), e.help(), e.diagnostics());
    } else if (failure instanceof NoPolicyException e) {
      answer(ctx, 404, e.message(), e.help(), List.of());
    } else if (failure instanceof BusyException e) {
      ctx.response().putHeader("Retry-After", Integer.toString(retryAfterSeconds));
      answer(ctx, 503, e.message(), e.help(), List.of());
    } else if (failure instanceof TimeoutException e) {
      LOG.log(Level.WARNING, "an engine call ran past its hard deadline while handling " + ctx.request().path());
      answer(ctx, 504, e.message(), e.help(), List.of());
    } else if (failure instanceof StoppedException e) {
      LOG.log(Level.WARNING, "an engine instance stopped while handling " + ctx.request().path() + ": " + e.getMessage());
      answer(ctx, 500, e.message(), e.help(), List.of());
    } else if (failure != null) {
      LOG.log(Level.ERROR, "handling " + ctx.request().method() + " " + ctx.request().path() + " failed", failure);
      answer(ctx, 500, "the server failed while handling the request",
          "this is a bug in svc; please report it with the server's log", List.of());
    } else {
      byStatus(ctx, ctx.statusCode());
    }
  }

  /**
   * The answer to a request Vert.x-Web refused before any route ran: an HTTP/1.1 request without a
   * valid {@code Host} header, which it fails with 400 and an exception of its own (its
   * {@code RoutingContextImpl.route} tests the authority so). Every failure handler asks this first.
   *
   * @param ctx a failed request
   * @return the answer; empty for any other failure
   */
  public static Optional<ApiError> refusedBeforeRouting(RoutingContext ctx) {
    if (ctx.failure() != null && !(ctx.failure() instanceof ApiError) && ctx.statusCode() == 400
        && !((HttpServerRequestInternal) ctx.request()).isValidAuthority()) {
      return Optional.of(new ApiError(400, "the request has no valid Host header",
          "send Host: <name or address>[:port], with an IPv6 address in brackets, such as [fd7a:115c:a1e0::1]:443"));
    }
    return Optional.empty();
  }

  // This body has no cause of its own: the error underneath follows the help, so no caller loses it.
  private static String helpWithCause(ApiError error) {
    Throwable cause = error.getCause();
    return cause == null ? error.help() : error.help() + " (cause: " + cause.getMessage() + ")";
  }

  private void byStatus(RoutingContext ctx, int status) {
    switch (status) {
      case 404 -> answer(ctx, 404, "Not found", "the API's routes are " + String.join(", ", routes.readablePaths()),
          List.of());
      case 405 -> {
        String allowed = routes.methodsAt(ctx.normalizedPath());
        ctx.response().putHeader(HttpHeaders.ALLOW, allowed);
        answer(ctx, 405, ctx.request().method() + " isn't a method of " + ctx.request().path(),
            "use " + allowed, List.of());
      }
      case 413 -> afterBody(ctx, () -> answer(ctx, 413,
          "the request body is larger than " + bodyLimit + " bytes",
          "send a smaller request, such as fewer files at a time", List.of()));
      default -> answer(ctx, status < 400 ? 500 : status, "the request failed with status " + status,
          "see the server's log", List.of());
    }
  }

  /**
   * Runs {@code answer} once the client has sent the whole body, which is read and dropped. A body
   * refused for its size is usually still on its way: closing the connection under unread bytes
   * resets it, and the client loses the answer. The read timeout bounds how long this takes.
   */
  private static void afterBody(RoutingContext ctx, Runnable answer) {
    HttpServerRequest request = ctx.request();
    if (request.isEnded()) {
      answer.run();
      return;
    }
    request.handler(chunk -> {});
    request.endHandler(done -> answer.run());
    request.resume();
  }

  /**
   * Answers {@code ctx} with an error body.
   *
   * @param ctx the request
   * @param status the HTTP status
   * @param message what failed
   * @param help what to do about it
   * @param diagnostics the engine's diagnostics, or empty
   */
  static void answer(RoutingContext ctx, int status, String message, String help, List<Diagnostic> diagnostics) {
    // An answer before the whole body was read leaves the connection stuck on the rest of it: close
    // it, rather than read a body that is refused already (it may be too large, or never come).
    boolean unread = !ctx.request().isEnded();
    if (unread) {
      ctx.response().putHeader(HttpHeaders.CONNECTION, "close");
    }
    Future<Void> written = ApiJson.write(ctx, status, new ErrorBody(message, help, diagnostics));
    if (unread) {
      written.onComplete(done -> ctx.request().connection().close());
    }
  }
}
