package dev.svc.server.mesh.tailnet;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.Completable;
import io.vertx.core.Future;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The lean path of the one local API call made for every API request, who-is: a {@code GET} written
 * as ready bytes on a plain socket connection to the daemon, and its answer read by
 * {@link HttpAnswer.Reader}. Vert.x's HTTP client does the same with a pool shared by all event
 * loops, a request and response object model, header maps and a hop to the pool's own thread; on the
 * 2 cores a small server gets, that bookkeeping cost more than the who-is itself.
 *
 * <p>Each event loop keeps its own connections, so a call never leaves the thread of the request it
 * serves. The calls an event loop makes in one turn (the API requests of one batch of reads) are
 * pipelined (HTTP/1.1): written together, in one write, on one connection, whose answers come back in
 * their order. Go's {@code net/http} server, which serves tailscaled's local API, reads pipelined
 * requests one after the other on a keep-alive connection; one write and one read for several
 * who-is calls is what saves the system calls, wake-ups and I/O bookkeeping of both sides. A call
 * goes on the connection of its turn while that carries fewer than {@link #MAX_PIPELINED}, else on an
 * idle one, else on a new one while the event loop has fewer than {@link #MAX_PER_LOOP}, else on the
 * least busy one with room; beyond that it waits, up to {@link #MAX_WAITING_PER_LOOP} calls, and
 * more fail at once, so a daemon that stopped answering costs bounded memory however many requests
 * arrive.
 *
 * <p>A call whose connection closed before any byte of its answer came gets the call once more on
 * another connection (a {@code GET} is safe to repeat) when the close wasn't about it: the daemon
 * closed a connection that had answered before (an idle timeout), or the call was pipelined behind
 * one that failed. Any other failure ends the call. Every call has a deadline; a call that passes it
 * closes its connection, which frees the calls pipelined behind it and makes sure a late answer is
 * never read as another call's. The deadlines are kept by the calls themselves and checked by one
 * periodic sweep per event loop ({@link #tick}) over the calls it holds, running while it holds any:
 * arming and cancelling a timer for each call cost more than the call's own bookkeeping, and a call
 * costs no entry in any shared set. A call therefore ends at most one tick after its deadline.
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
  /** The most calls in flight on one connection. */
  static final int MAX_PIPELINED = 16;
  /** The most calls that wait for a connection on one event loop. */
  static final int MAX_WAITING_PER_LOOP = 4096;

  private static final Duration LONGEST_TICK = Duration.ofSeconds(1);
  private static final Duration SHORTEST_TICK = Duration.ofMillis(10);

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
  private final Duration timeout;
  private final long sweepNanos;
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
   * @param timeout the deadline of each call, waiting for a connection included
   * @param maxBody the most bytes of an answer's body
   */
  LocalApiConnections(Vertx vertx, SocketAddress socket, Duration timeout, int maxBody) {
    this.vertx = (VertxInternal) vertx;
    this.socket = socket;
    this.timeout = timeout;
    this.sweepNanos = tick(timeout).toNanos();
    this.maxBody = maxBody;
    this.net = vertx.createNetClient(new NetClientOptions().setConnectTimeout((int) timeout.toMillis()));
  }

  /** How often the sweep runs for calls of deadline {@code timeout}: every tenth, from 10 ms to a second. */
  static Duration tick(Duration timeout) {
    Duration tenth = timeout.dividedBy(10);
    if (tenth.compareTo(SHORTEST_TICK) < 0) {
      return SHORTEST_TICK;
    }
    return tenth.compareTo(LONGEST_TICK) > 0 ? LONGEST_TICK : tenth;
  }

  /**
   * {@code GET uri} on a connection of the calling event loop.
   *
   * @param uri the path and query, already encoded
   * @param outcome gets, once, on the caller's context, the answer whatever its status; or a
   *     {@link TimeoutException} after the deadline, or the cause when the daemon couldn't be reached
   *     or its answer couldn't be read
   */
  void get(String uri, Completable<HttpAnswer> outcome) {
    ContextInternal caller = vertx.getOrCreateContext();
    Call call = new Call(caller, outcome, System.nanoTime() + timeout.toNanos());
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
    if (base.nettyEventLoop().inEventLoop()) {
      dispatch(base, call);
    } else {
      base.runOnContext(v -> dispatch(base, call));
    }
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
    loops.values().forEach(loop -> loop.base.nettyEventLoop().execute(loop::stopSweep));
    open.forEach(connection -> connection.socket.close());
    return net.close();
  }

  /** One call: its request, its deadline and who waits for its answer. */
  private final class Call {
    private final ContextInternal caller;
    private final Completable<HttpAnswer> outcome;
    /** When the call fails as timed out, in {@link System#nanoTime()}. */
    private final long deadline;
    private Buffer bytes;
    private Object trace;
    // Only touched on the event loop of the call's connections.
    private Connection connection;
    private boolean retried;
    private boolean done;

    Call(ContextInternal caller, Completable<HttpAnswer> outcome, long deadline) {
      this.caller = caller;
      this.outcome = outcome;
      this.deadline = deadline;
    }

    boolean passed(long now) {
      return !done && now - deadline >= 0;
    }

    void expire() {
      Connection holding = connection;
      if (fail(new TimeoutException("no answer within " + timeout.toMillis() + " ms")) && holding != null
          && holding.carries(this)) {
        holding.close();
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
      VertxTracer<Object, Object> tracer = tracer(caller);
      if (trace != null && tracer != null) {
        tracer.receiveResponse(caller, answer, trace, failure, ANSWER_TAGS);
      }
      if (caller.isEventLoopContext() && caller.nettyEventLoop().inEventLoop()) {
        caller.emit(null, v -> outcome.complete(answer, failure));
      } else {
        caller.runOnContext(v -> outcome.complete(answer, failure));
      }
      return true;
    }
  }

  /** The connections of one event loop; only touched on that loop's thread. */
  private final class Loop {
    private final ContextInternal base;
    private final List<Connection> connections = new ArrayList<>();
    private final ArrayDeque<Call> waiting = new ArrayDeque<>();
    private final List<Connection> unflushed = new ArrayList<>();
    /** The connection the calls of this turn go on; null once the turn's requests are written. */
    private Connection turn;
    /** The deadline sweep; null while the loop holds no call. */
    private ScheduledFuture<?> sweep;

    Loop(ContextInternal base) {
      this.base = base;
    }

    void acquire(Call call) {
      if (closed) {
        call.fail(new IllegalStateException("the client is closed"));
        return;
      }
      if (sweep == null) {
        sweep = base.nettyEventLoop().scheduleAtFixedRate(this::sweep, sweepNanos, sweepNanos, TimeUnit.NANOSECONDS);
      }
      if (!place(call)) {
        if (waiting.size() < MAX_WAITING_PER_LOOP) {
          waiting.addLast(call);
        } else {
          call.fail(new IllegalStateException(MAX_WAITING_PER_LOOP + " calls already wait for one of the "
              + MAX_PER_LOOP + " connections of this event loop"));
        }
      }
    }

    /** Puts {@code call} on a connection with room, per the class comment; false when none has any. */
    private boolean place(Call call) {
      Connection target = turn != null && turn.hasRoom() ? turn : null;
      Connection leastBusy = null;
      for (int i = 0; target == null && i < connections.size(); i++) {
        Connection each = connections.get(i);
        if (each.idle()) {
          target = each;
        } else if (each.hasRoom() && (leastBusy == null || each.load() < leastBusy.load())) {
          leastBusy = each;
        }
      }
      if (target == null && connections.size() < MAX_PER_LOOP) {
        target = connect();
      }
      if (target == null) {
        target = leastBusy;
      }
      if (target == null) {
        return false;
      }
      turn = target;
      target.add(call);
      return true;
    }

    /** {@code connection} has requests to write at the end of this turn. */
    void unflushed(Connection connection) {
      if (unflushed.isEmpty()) {
        // Runs after the I/O and tasks at hand, so every call of this turn joins the write.
        base.nettyEventLoop().execute(this::flush);
      }
      unflushed.add(connection);
    }

    private void flush() {
      turn = null;
      // A copy: a write that fails may close its connection, which leaves the list.
      Connection[] writing = unflushed.toArray(new Connection[0]);
      unflushed.clear();
      for (Connection connection : writing) {
        connection.flush();
      }
    }

    /** Ends the calls past their deadline; stops when the loop holds none. */
    private void sweep() {
      long now = System.nanoTime();
      List<Call> passed = new ArrayList<>();
      boolean holding = !waiting.isEmpty();
      for (Call call : waiting) {
        if (call.passed(now)) {
          passed.add(call);
        }
      }
      for (Connection connection : connections) {
        holding |= !connection.calls.isEmpty();
        for (Call call : connection.calls) {
          if (call.passed(now)) {
            passed.add(call);
          }
        }
      }
      if (!holding || closed) {
        stopSweep();
      }
      // Ended after the walk: a caller's continuation may make calls, and an ended call closes its connection.
      passed.forEach(Call::expire);
    }

    void stopSweep() {
      if (sweep != null) {
        sweep.cancel(false);
        sweep = null;
      }
    }

    /** A connection has room again: waiting calls may take it. */
    void freed() {
      for (Call next = waiting.peekFirst(); next != null; next = waiting.peekFirst()) {
        if (next.done) {
          waiting.pollFirst(); // it passed its deadline while waiting
        } else if (closed) {
          waiting.pollFirst().fail(new IllegalStateException("the client is closed"));
        } else if (place(next)) {
          waiting.pollFirst();
        } else {
          return;
        }
      }
    }

    /** {@code connection} closed. */
    void lost(Connection connection) {
      connections.remove(connection);
      unflushed.remove(connection);
      if (turn == connection) {
        turn = null;
      }
      open.remove(connection);
    }

    private Connection connect() {
      Connection connection = new Connection(this);
      connections.add(connection);
      // On the loop's own context, so the socket's handlers run there and hold no request's context.
      base.emit(null, v -> net.connect(socket).onComplete(connected -> {
        if (connected.failed()) {
          connection.failed(connected.cause());
        } else {
          connection.connected(connected.result());
        }
      }));
      return connection;
    }
  }

  /** One connection to the daemon, carrying its calls in order. */
  private final class Connection {
    private final Loop loop;
    /** The calls sent or to send, in order; the first one's answer comes next. */
    private final ArrayDeque<Call> calls = new ArrayDeque<>();
    private NetSocket socket; // null while connecting
    private Buffer unsent;
    private HttpAnswer.Reader reader = new HttpAnswer.Reader(maxBody);
    private boolean answeredBefore;
    private boolean received;
    private boolean closedHere;
    private Throwable broken;

    Connection(Loop loop) {
      this.loop = loop;
    }

    boolean idle() {
      return calls.isEmpty() && !closedHere;
    }

    boolean hasRoom() {
      return calls.size() < MAX_PIPELINED && !closedHere;
    }

    int load() {
      return calls.size();
    }

    boolean carries(Call call) {
      return calls.contains(call);
    }

    void add(Call call) {
      call.connection = this;
      calls.addLast(call);
      if (unsent == null) {
        unsent = Buffer.buffer(call.bytes.length() * 4);
        loop.unflushed(this);
      }
      unsent.appendBuffer(call.bytes);
    }

    /** Writes the requests added in this turn, once connected. */
    void flush() {
      if (socket != null && unsent != null) {
        socket.write(unsent);
        unsent = null;
      }
    }

    void connected(NetSocket connected) {
      socket = connected;
      open.add(this);
      socket.handler(this::onBytes);
      socket.exceptionHandler(failure -> {
        broken = failure;
        close();
      });
      socket.closeHandler(v -> onClose());
      if (closed || closedHere) {
        socket.close();
        return;
      }
      flush();
    }

    void failed(Throwable cause) {
      loop.lost(this);
      for (Call call = calls.pollFirst(); call != null; call = calls.pollFirst()) {
        call.fail(cause);
      }
      loop.freed();
    }

    void close() {
      closedHere = true;
      if (socket != null) {
        socket.close();
      }
    }

    private void onBytes(Buffer bytes) {
      Buffer rest = bytes;
      while (rest.length() > 0 && !closedHere) {
        Call current = calls.peekFirst();
        if (current == null) {
          close(); // nothing was asked: the connection is out of step
          return;
        }
        received = true;
        HttpAnswer answer;
        try {
          answer = reader.feed(rest);
        } catch (IllegalStateException unreadable) {
          calls.pollFirst();
          reader = new HttpAnswer.Reader(maxBody);
          received = false; // nothing of the calls behind it came
          current.fail(unreadable);
          close();
          return;
        }
        if (answer == null) {
          return;
        }
        rest = reader.rest();
        calls.pollFirst();
        answeredBefore = true;
        reader = new HttpAnswer.Reader(maxBody);
        received = false;
        if (!answer.reusable() || closed) {
          close(); // the calls behind this one get another connection once it closed
        } else {
          // Free the slot first: the caller's continuation runs within end(), and its next who-is may take it.
          loop.freed();
        }
        current.end(answer, null);
      }
    }

    private void onClose() {
      loop.lost(this);
      Call first = calls.pollFirst();
      if (first != null && !first.done) {
        endFirst(first);
      }
      // The calls behind the first one were never looked at: another connection may carry them.
      for (Call call = calls.pollFirst(); call != null; call = calls.pollFirst()) {
        retryOrFail(call, new IllegalStateException("the connection closed before an answer"));
      }
      loop.freed();
    }

    /** The first call at the close: its answer may run to the close, or be cut. */
    private void endFirst(Call first) {
      HttpAnswer answer;
      try {
        answer = reader.end();
      } catch (IllegalStateException cut) {
        if (!received && (answeredBefore || closedHere)) {
          // The daemon closed the idle connection as this call began, or another call's end closed it.
          retryOrFail(first, broken != null ? broken : cut);
        } else {
          first.fail(broken != null ? broken : cut);
        }
        return;
      }
      first.end(answer, null);
    }

    private void retryOrFail(Call call, Throwable failure) {
      if (call.done) {
        return;
      }
      if (call.retried || closed) {
        call.fail(failure);
        return;
      }
      call.retried = true;
      call.connection = null;
      loop.acquire(call);
    }
  }
}
