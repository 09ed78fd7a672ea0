package dev.svc.server.http;

import dev.svc.server.config.SvcConfig;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code server.*} timeouts, which carry Go's {@code net/http} meanings, on a Vert.x listener. Vert.x
 * has only inactivity timers, so three of the four are timers of our own:
 *
 * <table>
 *   <caption>How each key maps</caption>
 *   <tr><th>Key</th><th>Go</th><th>Here</th></tr>
 *   <tr><td>{@code idleTimeout}</td><td>how long a kept-alive connection waits for its next request</td>
 *       <td>the listener's idle timeout: a connection with no traffic either way for that long is closed.
 *       Unlike Go, this also cuts a request that falls silent midway; at the defaults the two timers
 *       below are shorter and answer first.</td></tr>
 *   <tr><td>{@code readHeaderTimeout}</td><td>reading a request's headers</td>
 *       <td>a timer from accepting a connection to its first request's headers; the connection is closed
 *       when it fires. Later requests on a kept-alive connection fall under {@code idleTimeout} instead:
 *       Vert.x reports no first byte of a next request to start the timer from.</td></tr>
 *   <tr><td>{@code readTimeout}</td><td>reading the whole request, headers included</td>
 *       <td>a timer from a request's headers to the end of its body: 408 and the connection closed. As it
 *       starts at the headers, a request may take {@code readHeaderTimeout} more than in Go.</td></tr>
 *   <tr><td>{@code writeTimeout}</td><td>from the request's headers to the end of the response</td>
 *       <td>a timer over the same span: 503 when nothing of the answer is written yet, else the connection
 *       closed (Go closes it in both cases, leaving the client without an answer).</td></tr>
 * </table>
 *
 * <p>Zero turns a timeout off, as in Go. One instance serves the listeners of one event loop.
 *
 * <p><b>Thread safety:</b> not thread-safe; use it on one event loop.
 */
public final class HttpTimeouts {

  private final Vertx vertx;
  private final SvcConfig.Server config;
  private final Map<HttpConnection, Long> awaitingHeaders = new HashMap<>();

  /**
   * The timeouts {@code config} sets, timed by {@code vertx}.
   *
   * @param vertx the timers' owner
   * @param config the {@code server.*} keys
   */
  public HttpTimeouts(Vertx vertx, SvcConfig.Server config) {
    this.vertx = vertx;
    this.config = config;
  }

  /**
   * {@code options} with the idle timeout, and without cleartext HTTP/2: to tell HTTP/2 from HTTP/1.1
   * Vert.x holds a new connection back until its first request's headers have arrived, which would
   * start the header timer too late. HTTPS listeners still offer HTTP/2 through ALPN.
   *
   * @param options the listener's options; changed and returned
   * @return {@code options}
   */
  public HttpServerOptions apply(HttpServerOptions options) {
    return options.setIdleTimeout((int) Math.min(Integer.MAX_VALUE, config.idleTimeout().toMillis()))
        .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
        .setHttp2ClearTextEnabled(false);
  }

  /**
   * The listener's connection handler: starts the wait for the first request's headers.
   *
   * @param connection a connection just accepted
   */
  public void awaitHeaders(HttpConnection connection) {
    if (config.readHeaderTimeout().isZero()) {
      return;
    }
    long timer = vertx.setTimer(config.readHeaderTimeout().toMillis(), id -> {
      awaitingHeaders.remove(connection);
      connection.close();
    });
    awaitingHeaders.put(connection, timer);
    connection.closeHandler(closed -> {
      Long pending = awaitingHeaders.remove(connection);
      if (pending != null) {
        vertx.cancelTimer(pending);
      }
    });
  }

  /**
   * The router's first handler: the headers have arrived, so the read and write deadlines of the
   * request start.
   *
   * @param ctx the request
   */
  public void startDeadlines(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    Long headerTimer = awaitingHeaders.remove(request.connection());
    if (headerTimer != null) {
      vertx.cancelTimer(headerTimer);
    }
    List<Long> timers = new ArrayList<>(2);
    if (!config.readTimeout().isZero() && !request.isEnded()) {
      timers.add(vertx.setTimer(config.readTimeout().toMillis(), id -> readTimedOut(ctx)));
    }
    if (!config.writeTimeout().isZero()) {
      timers.add(vertx.setTimer(config.writeTimeout().toMillis(), id -> writeTimedOut(ctx)));
    }
    ctx.addEndHandler(done -> timers.forEach(vertx::cancelTimer));
    ctx.next();
  }

  private void readTimedOut(RoutingContext ctx) {
    if (!ctx.request().isEnded()) {
      cutOff(ctx, 408, "the request wasn't read within server.readTimeout (" + words(config.readTimeout()) + ")",
          "send the whole request at once; a stalled upload is cut off");
    }
  }

  private void writeTimedOut(RoutingContext ctx) {
    cutOff(ctx, 503, "the answer wasn't ready within server.writeTimeout (" + words(config.writeTimeout()) + ")",
        "try again later, or with a smaller request");
  }

  // Answers in place of the late handler; half an answer already written can only be cut short.
  private static void cutOff(RoutingContext ctx, int status, String message, String help) {
    if (ApiJson.canStillAnswer(ctx)) {
      ApiErrors.answer(ctx, status, message, help, List.of());
    }
  }

  private static String words(Duration duration) {
    return duration.toString().substring(2).toLowerCase(Locale.ROOT);
  }
}
