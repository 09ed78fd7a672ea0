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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

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
 * <p>The three timers are one periodic sweep per listener (a twentieth of the shortest timeout, 5 to
 * 250 ms), so each fires up to that much after its time.
 *
 * <p><b>Thread safety:</b> an instance belongs to one listener and its event loop.
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

  /** The sweep's period as a share of the shortest timeout: each may fire up to that much late. */
  private static final long SWEEPS_PER_TIMEOUT = 20;
  private static final long MIN_SWEEP_MILLIS = 5;
  private static final long MAX_SWEEP_MILLIS = 250;

  private final Vertx vertx;
  private final SvcConfig.Server config;
  private final long sweepMillis;
  // What the sweep watches. An instance serves one listener, whose connections and requests all run on
  // its event loop, as the sweep does: no locks.
  private final Map<HttpConnection, HeaderWatch> watches = new HashMap<>();
  private final Set<RequestDeadlines> requests = new HashSet<>();
  private long sweep = -1;

  /**
   * The timeouts {@code config} sets, timed by {@code vertx}. Used by one listener: its handlers must
   * all run on one event loop.
   *
   * @param vertx the timers' owner
   * @param config the {@code server.*} keys
   */
  public HttpTimeouts(Vertx vertx, SvcConfig.Server config) {
    this.vertx = vertx;
    this.config = config;
    long shortest = Stream.of(config.readHeaderTimeout(), config.readTimeout(), config.writeTimeout())
        .filter(timeout -> !timeout.isZero()).mapToLong(Duration::toMillis).min().orElse(MAX_SWEEP_MILLIS);
    this.sweepMillis = Math.max(MIN_SWEEP_MILLIS, Math.min(MAX_SWEEP_MILLIS, shortest / SWEEPS_PER_TIMEOUT));
  }

  /**
   * {@code options} with the idle timeout of {@code config}, and without cleartext HTTP/2: to tell
   * HTTP/2 from HTTP/1.1 Vert.x holds a new connection back until its first request's headers have
   * arrived, which would start the header timer too late. HTTPS listeners still offer HTTP/2 through
   * ALPN. Static: the options are set once for all of the API's listeners, before any of them (and
   * its instance of this class, which lives on its event loop) exists.
   *
   * @param config the {@code server.*} keys
   * @param options the listener's options; changed and returned
   * @return {@code options}
   */
  public static HttpServerOptions apply(SvcConfig.Server config, HttpServerOptions options) {
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
    connection.closeHandler(closed -> watches.remove(connection));
    watch.bytesArrived();
    // HTTP/2 multiplexes requests and pings between them: its connections get the first wait only.
    if (connection instanceof Http1xServerConnection http1) {
      http1.channel().pipeline().addFirst("svc-header-watch", new ChannelInboundHandlerAdapter() {
        @Override
        public void channelRead(ChannelHandlerContext channel, Object message) {
          watch.bytesArrived();
          channel.fireChannelRead(message);
        }
      });
    }
    keepSweeping();
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
      watch.requests++;
      watch.headersBy = 0;
    }
    long now = System.nanoTime();
    long readBy = config.readTimeout().isZero() || request.isEnded() ? 0 : now + config.readTimeout().toNanos();
    long writeBy = config.writeTimeout().isZero() ? 0 : now + config.writeTimeout().toNanos();
    RequestDeadlines deadlines = readBy == 0 && writeBy == 0 ? null : new RequestDeadlines(ctx, readBy, writeBy);
    if (deadlines != null) {
      requests.add(deadlines);
      keepSweeping();
    }
    if (deadlines != null || watch != null) {
      ctx.addEndHandler(done -> {
        if (deadlines != null) {
          requests.remove(deadlines);
        }
        if (watch != null) {
          watch.requests = Math.max(0, watch.requests - 1);
        }
      });
    }
    ctx.next();
  }

  /**
   * One connection's wait for request headers: from the connection's first byte, or the first byte
   * after an answer, until the headers of the request it starts have arrived.
   */
  private final class HeaderWatch {

    private final HttpConnection connection;
    private int requests; // in flight
    private long headersBy; // System.nanoTime() deadline; 0 when not waiting

    HeaderWatch(HttpConnection connection) {
      this.connection = connection;
    }

    void bytesArrived() {
      if (requests == 0 && headersBy == 0) {
        // 0 means "not waiting", so a deadline that happens to be 0 moves a nanosecond on.
        headersBy = (System.nanoTime() + config.readHeaderTimeout().toNanos()) | 1;
      }
    }
  }

  /** A request's read and write deadlines ({@link System#nanoTime()}; 0 when off or passed). */
  private static final class RequestDeadlines {

    private final RoutingContext ctx;
    private long readBy;
    private long writeBy;

    RequestDeadlines(RoutingContext ctx, long readBy, long writeBy) {
      this.ctx = ctx;
      this.readBy = readBy;
      this.writeBy = writeBy;
    }
  }

  // One periodic sweep per listener instead of timers set and cancelled per request: a timer costs a
  // scheduled task and a map entry each way, which showed as a tenth of the event loop's time under load.
  private void keepSweeping() {
    if (sweep < 0) {
      sweep = vertx.setPeriodic(sweepMillis, id -> sweep());
    }
  }

  private void sweep() {
    long now = System.nanoTime();
    List<HttpConnection> late = new ArrayList<>();
    watches.forEach((connection, watch) -> {
      if (watch.headersBy != 0 && now - watch.headersBy >= 0) {
        watch.headersBy = 0;
        late.add(connection);
      }
    });
    late.forEach(HttpConnection::close);
    for (RequestDeadlines deadlines : List.copyOf(requests)) {
      if (deadlines.readBy != 0 && now - deadlines.readBy >= 0) {
        deadlines.readBy = 0;
        readTimedOut(deadlines.ctx);
      }
      if (deadlines.writeBy != 0 && now - deadlines.writeBy >= 0) {
        deadlines.writeBy = 0;
        writeTimedOut(deadlines.ctx);
      }
      // Past both deadlines there is nothing left to watch, even if the request never ended.
      if (deadlines.readBy == 0 && deadlines.writeBy == 0) {
        requests.remove(deadlines);
      }
    }
    if (watches.isEmpty() && requests.isEmpty()) {
      vertx.cancelTimer(sweep);
      sweep = -1;
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
