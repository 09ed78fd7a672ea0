package dev.svc.server.mesh.tailnet;

import io.netty.channel.EventLoop;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.tracing.SpanKind;
import io.vertx.core.spi.tracing.TagExtractor;
import io.vertx.core.spi.tracing.VertxTracer;
import io.vertx.core.tracing.TracingPolicy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

/**
 * The lean path of the one local API call made for every API request, who-is: a {@code GET} written
 * as ready bytes on a plain socket connection to the daemon, and its answer read by
 * {@link HttpAnswer.Reader}. Vert.x's HTTP client does the same with a pool shared by all event
 * loops, a request and response object model, header maps and a hop to the pool's own thread; on the
 * 2 cores a small server gets, that bookkeeping cost more than the who-is itself.
 *
 * <p>Each event loop keeps its own connections, so a call never leaves the thread of the request it
 * serves: idle ones are reused (the most recent first), at most {@link #MAX_PER_LOOP} are open, and
 * calls beyond that wait for one to come free, up to {@link #MAX_WAITING_PER_LOOP}; more fail at once, so
 * a daemon that stopped answering costs bounded memory however many requests arrive. A reused connection the daemon closed while it was
 * idle gets the call again on a fresh one (a {@code GET} is safe to repeat); any other failure ends
 * the call. Every call has a deadline ({@link CallDeadlines}); a call that passes it closes its
 * connection, so a late answer is never read as the answer of the next call.
 *
 * <p>When tracing is on, each call is a client span of the request it serves (access-server spec
 * §10), as a call through Vert.x's HTTP client would be: named after the method, with the method,
 * the full URL and the answer's status, and its context propagated to the daemon in the headers.
 *
 * <p><b>Thread safety:</b> thread-safe; the connections of an event loop are only touched on it.
 */
final class LocalApiConnections {

  /** The most connections one event loop opens to the daemon. */
  static final int MAX_PER_LOOP = 32;
  /** The most calls that wait for a connection on one event loop. */
  static final int MAX_WAITING_PER_LOOP = 4096;

  private static final String URL_BASE = "http://" + LocalApiClient.HOST;
  private static final TagExtractor<String> REQUEST_TAGS = new TagExtractor<>() {
    @Override
    public int len(String uri) {
      return 2;
    }

    @Override
    public String name(String uri, int index) {
      return index == 0 ? "http.request.method" : "url.full";
    }

    @Override
    public String value(String uri, int index) {
      return index == 0 ? "GET" : URL_BASE + uri;
    }
  };
  private static final TagExtractor<HttpAnswer> ANSWER_TAGS = new TagExtractor<>() {
    @Override
    public int len(HttpAnswer answer) {
      return 1;
    }

    @Override
    public String name(HttpAnswer answer, int index) {
      return "http.response.status_code";
    }

    @Override
    public String value(HttpAnswer answer, int index) {
      return Integer.toString(answer.status());
    }
  };

  private final NetClient net;
  private final SocketAddress socket;
  private final CallDeadlines deadlines;
  private final Duration timeout;
  private final int maxBody;
  private final VertxInternal vertx;
  private final Map<EventLoop, Loop> loops = new ConcurrentHashMap<>();
  private final Set<Connection> open = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /**
   * Connections to the daemon at {@code socket}.
   *
   * @param vertx runs the connections
   * @param socket the daemon's local API socket
   * @param deadlines ends the calls that take too long
   * @param timeout the deadline of each call, waiting for a connection included
   * @param maxBody the most bytes of an answer's body
   */
  LocalApiConnections(Vertx vertx, SocketAddress socket, CallDeadlines deadlines, Duration timeout, int maxBody) {
    this.vertx = (VertxInternal) vertx;
    this.socket = socket;
    this.deadlines = deadlines;
    this.timeout = timeout;
    this.maxBody = maxBody;
    this.net = vertx.createNetClient(new NetClientOptions().setConnectTimeout((int) timeout.toMillis()));
  }

  /**
   * {@code GET uri} on a connection of the calling event loop.
   *
   * @param uri the path and query, already encoded
   * @return the answer, whatever its status, on the caller's context; fails with a
   *     {@link TimeoutException} after the deadline, or with the cause when the daemon couldn't be
   *     reached or its answer couldn't be read
   */
  Future<HttpAnswer> get(String uri) {
    ContextInternal caller = vertx.getOrCreateContext();
    Call call = new Call(caller);
    StringBuilder request = new StringBuilder(uri.length() + 128).append("GET ").append(uri)
        .append(" HTTP/1.1\r\nHost: ").append(LocalApiClient.HOST).append("\r\n");
    VertxTracer<Object, Object> tracer = tracer(caller);
    if (tracer != null) {
      call.trace = tracer.sendRequest(caller, SpanKind.RPC, TracingPolicy.PROPAGATE, uri, "GET",
          (name, value) -> request.append(name).append(": ").append(value).append("\r\n"), REQUEST_TAGS);
    }
    call.bytes = Buffer.buffer(request.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
    // The connections belong to the event loop's own context; a caller on a worker thread borrows one.
    ContextInternal base = caller.isEventLoopContext() ? caller.unwrap() : vertx.createEventLoopContext();
    call.deadline = deadlines.start(timeout, () -> base.runOnContext(v -> call.expire()));
    if (base.nettyEventLoop().inEventLoop()) {
      dispatch(base, call);
    } else {
      base.runOnContext(v -> dispatch(base, call));
    }
    return call.answered.future();
  }

  /** The tracer, null without tracing; its payloads are opaque here. */
  @SuppressWarnings("unchecked")
  private static VertxTracer<Object, Object> tracer(ContextInternal context) {
    return (VertxTracer<Object, Object>) context.tracer();
  }

  private void dispatch(ContextInternal base, Call call) {
    if (closed) {
      call.fail(new IllegalStateException("the client is closed"));
      return;
    }
    loops.computeIfAbsent(base.nettyEventLoop(), loop -> new Loop(base)).acquire(call);
  }

  /**
   * Closes every connection; calls in flight fail.
   *
   * @return completes when closed
   */
  Future<Void> close() {
    closed = true;
    open.forEach(connection -> connection.socket.close());
    return net.close();
  }

  /** One call: its request, its deadline and who waits for its answer. */
  private final class Call {
    private final ContextInternal caller;
    private final Promise<HttpAnswer> answered = Promise.promise();
    private Buffer bytes;
    private Object trace;
    private CallDeadlines.Deadline deadline;
    // Only touched on the event loop of the call's connections.
    private Connection connection;
    private boolean retried;
    private boolean done;

    Call(ContextInternal caller) {
      this.caller = caller;
    }

    void expire() {
      Connection holding = connection;
      if (fail(new TimeoutException("no answer within " + timeout.toMillis() + " ms"))
          && holding != null && holding.call == this) {
        holding.socket.close();
      }
    }

    boolean fail(Throwable failure) {
      return end(null, failure);
    }

    /** Hands the outcome to the caller, on its context, once; false when it had ended before. */
    boolean end(HttpAnswer answer, Throwable failure) {
      if (done) {
        return false;
      }
      done = true;
      deadline.cancel();
      VertxTracer<Object, Object> tracer = tracer(caller);
      if (trace != null && tracer != null) {
        tracer.receiveResponse(caller, answer, trace, failure, ANSWER_TAGS);
      }
      if (caller.isEventLoopContext() && caller.nettyEventLoop().inEventLoop()) {
        caller.emit(null, v -> settle(answer, failure));
      } else {
        caller.runOnContext(v -> settle(answer, failure));
      }
      return true;
    }

    private void settle(HttpAnswer answer, Throwable failure) {
      if (failure == null) {
        answered.complete(answer);
      } else {
        answered.fail(failure);
      }
    }
  }

  /** The connections of one event loop; only touched on that loop's thread. */
  private final class Loop {
    private final ContextInternal base;
    private final ArrayDeque<Connection> idle = new ArrayDeque<>();
    private final ArrayDeque<Call> waiting = new ArrayDeque<>();
    private int count;

    Loop(ContextInternal base) {
      this.base = base;
    }

    void acquire(Call call) {
      Connection connection = idle.pollLast();
      if (connection != null) {
        connection.send(call);
      } else if (count < MAX_PER_LOOP) {
        count++;
        connect(call);
      } else if (waiting.size() < MAX_WAITING_PER_LOOP) {
        waiting.addLast(call);
      } else {
        call.fail(new IllegalStateException(MAX_WAITING_PER_LOOP + " calls already wait for one of the "
            + MAX_PER_LOOP + " connections of this event loop"));
      }
    }

    /** {@code connection} finished its call and may carry another. */
    void release(Connection connection) {
      Call next = nextWaiting();
      if (next != null) {
        connection.send(next);
      } else {
        idle.addLast(connection);
      }
    }

    /** {@code connection} closed; a waiting call may open another. */
    void lost(Connection connection) {
      idle.remove(connection);
      open.remove(connection);
      freed();
    }

    /** One connection fewer: a waiting call may open another. */
    private void freed() {
      count--;
      for (Call next = nextWaiting(); next != null; next = nextWaiting()) {
        if (!closed) {
          count++;
          connect(next);
          return;
        }
        next.fail(new IllegalStateException("the client is closed"));
      }
    }

    private Call nextWaiting() {
      Call next = waiting.pollFirst();
      while (next != null && next.done) {
        next = waiting.pollFirst();
      }
      return next;
    }

    private void connect(Call call) {
      if (closed) {
        call.fail(new IllegalStateException("the client is closed"));
        freed();
        return;
      }
      // On the loop's own context, so the socket's handlers run there and hold no request's context.
      base.emit(null, v -> net.connect(socket).onComplete(connected -> {
        if (connected.failed()) {
          call.fail(connected.cause());
          freed();
          return;
        }
        Connection connection = new Connection(this, connected.result());
        open.add(connection);
        if (closed) {
          connection.socket.close();
        }
        connection.send(call);
      }));
    }
  }

  /** One connection to the daemon, carrying one call at a time. */
  private final class Connection {
    private final Loop loop;
    private final NetSocket socket;
    private Call call;
    private HttpAnswer.Reader reader;
    private boolean reused;
    private boolean received;
    private Throwable broken;

    Connection(Loop loop, NetSocket socket) {
      this.loop = loop;
      this.socket = socket;
      socket.handler(this::onBytes);
      socket.exceptionHandler(failure -> {
        broken = failure;
        socket.close();
      });
      socket.closeHandler(v -> onClose());
    }

    void send(Call next) {
      if (next.done) {
        loop.release(this); // it passed its deadline while waiting
        return;
      }
      call = next;
      next.connection = this;
      reader = new HttpAnswer.Reader(maxBody);
      received = false;
      socket.write(next.bytes);
    }

    private void onBytes(Buffer bytes) {
      Call current = call;
      if (current == null) {
        socket.close(); // nothing was asked: the connection is out of step
        return;
      }
      received = true;
      HttpAnswer answer;
      try {
        answer = reader.feed(bytes);
      } catch (IllegalStateException unreadable) {
        call = null;
        current.fail(unreadable);
        socket.close();
        return;
      }
      if (answer == null) {
        return;
      }
      call = null;
      reused = true;
      // Free first: the caller's continuation runs within end(), and its next who-is may take this connection.
      if (answer.reusable() && !closed) {
        loop.release(this);
      } else {
        socket.close();
      }
      current.end(answer, null);
    }

    private void onClose() {
      loop.lost(this);
      Call current = call;
      call = null;
      if (current == null || current.done) {
        return;
      }
      HttpAnswer answer;
      try {
        answer = reader.end();
      } catch (IllegalStateException cut) {
        if (reused && !received && !current.retried && !closed) {
          // The daemon closed the idle connection as this call began: try once on a fresh one.
          current.retried = true;
          current.connection = null;
          loop.acquire(current);
        } else {
          current.fail(broken != null ? broken : cut);
        }
        return;
      }
      current.end(answer, null);
    }
  }
}
