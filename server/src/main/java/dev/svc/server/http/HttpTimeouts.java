package dev.svc.server.http;

import dev.svc.server.config.SvcConfig;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.impl.Http1xServerConnection;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
 *       <td>a timer from accepting a connection to its first request's headers, and on a kept-alive
 *       connection from the first byte after an answer to the next request's headers; the connection is
 *       closed when it fires. Vert.x reports no such byte, so a handler at the front of the connection's
 *       Netty pipeline watches for it.</td></tr>
 *   <tr><td>{@code readTimeout}</td><td>reading the whole request, headers included</td>
 *       <td>a timer from a request's headers to the end of its body: 408 and the connection closed. As it
 *       starts at the headers, a request may take {@code readHeaderTimeout} more than in Go.</td></tr>
 *   <tr><td>{@code writeTimeout}</td><td>from the request's headers to the end of the response</td>
 *       <td>a timer over the same span: 503 when nothing of the answer is written yet, else the connection
 *       closed (Go closes it in both cases, leaving the client without an answer).</td></tr>
 * </table>
 *
 * <p>Zero turns a timeout off, as in Go. The answers of {@code readTimeout} and {@code writeTimeout}
 * are failures of the request ({@link ApiError}), so each API writes them in its own error shape. A
 * handler whose work can't be taken back once started (an install) puts a {@link LateAnswer} in the
 * request's data under {@link #LATE_ANSWER}, which answers in place of the write timeout's 503.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class HttpTimeouts {

  /** The key of a request's {@link LateAnswer} in its {@link RoutingContext#data()}. */
  public static final String LATE_ANSWER = "svc.lateAnswer";

  /**
   * How a handler answers when its answer isn't ready within {@code server.writeTimeout}, in place of
   * the 503 that says nothing happened: for work that happens anyway once it started.
   */
  @FunctionalInterface
  public interface LateAnswer {

    /**
     * Answers {@code ctx}, or fails it with {@code timeout} when nothing was done.
     *
     * @param ctx the request, not answered yet
     * @param timeout the write timeout's 503
     */
    void answer(RoutingContext ctx, ApiError timeout);
  }

  private final Vertx vertx;
  private final SvcConfig.Server config;
  private final Map<HttpConnection, HeaderWatch> watches = new ConcurrentHashMap<>();

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
   * The listener's connection handler: starts the wait for the first request's headers, and watches
   * the connection for the first byte of each later one.
   *
   * @param connection a connection just accepted
   */
  public void awaitHeaders(HttpConnection connection) {
    if (config.readHeaderTimeout().isZero()) {
      return;
    }
    HeaderWatch watch = new HeaderWatch(connection);
    watches.put(connection, watch);
    connection.closeHandler(closed -> {
      HeaderWatch gone = watches.remove(connection);
      if (gone != null) {
        gone.stop();
      }
    });
    watch.bytesArrived();
    // HTTP/2 multiplexes requests and pings between them: its connections get the first timer only.
    if (connection instanceof Http1xServerConnection http1) {
      http1.channel().pipeline().addFirst("svc-header-watch", new ChannelInboundHandlerAdapter() {
        @Override
        public void channelRead(ChannelHandlerContext channel, Object message) {
          watch.bytesArrived();
          channel.fireChannelRead(message);
        }
      });
    }
  }

  /**
   * The router's first handler: the headers have arrived, so the read and write deadlines of the
   * request start.
   *
   * @param ctx the request
   */
  public void startDeadlines(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    HeaderWatch watch = watches.get(request.connection());
    if (watch != null) {
      watch.requestStarted();
    }
    List<Long> timers = new ArrayList<>(2);
    if (!config.readTimeout().isZero() && !request.isEnded()) {
      timers.add(vertx.setTimer(config.readTimeout().toMillis(), id -> readTimedOut(ctx)));
    }
    if (!config.writeTimeout().isZero()) {
      timers.add(vertx.setTimer(config.writeTimeout().toMillis(), id -> writeTimedOut(ctx)));
    }
    ctx.addEndHandler(done -> {
      timers.forEach(vertx::cancelTimer);
      if (watch != null) {
        watch.requestEnded();
      }
    });
    ctx.next();
  }

  /**
   * One connection's wait for request headers: a timer runs from the connection's first byte, or the
   * first byte after an answer, until the headers of the request it starts have arrived.
   */
  private final class HeaderWatch {

    private final HttpConnection connection;
    private int requests; // in flight; guarded by this
    private long timer = -1; // guarded by this

    HeaderWatch(HttpConnection connection) {
      this.connection = connection;
    }

    synchronized void bytesArrived() {
      if (requests == 0 && timer < 0) {
        timer = vertx.setTimer(config.readHeaderTimeout().toMillis(), id -> connection.close());
      }
    }

    synchronized void requestStarted() {
      requests++;
      stop();
    }

    synchronized void stop() {
      if (timer >= 0) {
        vertx.cancelTimer(timer);
        timer = -1;
      }
    }

    synchronized void requestEnded() {
      requests = Math.max(0, requests - 1);
    }
  }

  private void readTimedOut(RoutingContext ctx) {
    if (!ctx.request().isEnded()) {
      cutOff(ctx, 408, "the request wasn't read within server.readTimeout (" + words(config.readTimeout()) + ")",
          "send the whole request at once; a stalled upload is cut off");
    }
  }

  private void writeTimedOut(RoutingContext ctx) {
    if (!ApiJson.canStillAnswer(ctx)) {
      return;
    }
    ApiError timeout = new ApiError(503,
        "the answer wasn't ready within server.writeTimeout (" + words(config.writeTimeout()) + ")",
        "try again later, or with a smaller request");
    LateAnswer late = ctx.get(LATE_ANSWER);
    if (late == null) {
      ctx.fail(timeout);
    } else {
      late.answer(ctx, timeout);
    }
  }

  // Answers in place of the late handler; half an answer already written can only be cut short.
  private static void cutOff(RoutingContext ctx, int status, String message, String help) {
    if (ApiJson.canStillAnswer(ctx)) {
      ctx.fail(new ApiError(status, message, help));
    }
  }

  private static String words(Duration duration) {
    return duration.toString().substring(2).toLowerCase(Locale.ROOT);
  }
}
