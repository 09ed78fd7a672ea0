package dev.svc.server.mesh.tailnet;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.server.mesh.Caller;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.parsetools.RecordParser;
import io.vertx.core.tracing.TracingPolicy;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

/**
 * A client of tailscaled's local API: HTTP/1.1 over the daemon's unix socket, with the only
 * {@code Host} the daemon accepts ({@value #HOST}) and never an {@code Origin} or {@code Referer}
 * (the daemon refuses both). All wire handling of the daemon lives here, since its local API makes
 * no stability promise.
 *
 * <p>Every call has a deadline: {@link #CALL_TIMEOUT}, or {@link #CERT_TIMEOUT} for a certificate,
 * which the first time needs an ACME exchange. A daemon that is starting holds requests instead of
 * refusing them, so a call without a deadline could wait forever: a timer fails the call when its
 * deadline passes (these calls are few: start-up, certificates, the bus). The IPN bus watch has no deadline
 * once its stream began, and gets a connection of its own so who-is calls never queue behind it.
 * Who-is, the call made for every API request, takes a lean path of its own
 * ({@link LocalApiConnections}). Answers are read up to {@link #MAX_ANSWER_BYTES}.
 *
 * <p>A failed call is a failed future with a {@link LocalApiException}: the daemon's status and its
 * message, read from a JSON {@code error}/{@code Error} member or the plain text body.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class LocalApiClient {

  /** The {@code Host} header tailscaled requires on its socket. */
  public static final String HOST = "local-tailscaled.sock";
  /** The deadline of every call but a certificate's. */
  public static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
  /** The deadline of a certificate: the first issuance runs an ACME exchange. */
  public static final Duration CERT_TIMEOUT = Duration.ofSeconds(180);
  /** The most bytes of one answer, or of one bus line, this client reads. */
  public static final int MAX_ANSWER_BYTES = 4 << 20;
  /** The pause between two tries while the daemon's socket doesn't answer yet. */
  public static final Duration STARTUP_RETRY = Duration.ofMillis(250);

  private static final String API = "/localapi/v0/";
  private static final int MAX_ERROR_CHARS = 512;

  private final Vertx vertx;
  private final SocketAddress socket;
  private final ObjectMapper json;
  private final Clock clock;
  private final Duration callTimeout;
  private final HttpClient calls;
  private final HttpClient watches;
  private final LocalApiConnections whoIsCalls;
  private final WhoIsAnswer.Reader whoIsAnswers;

  /**
   * A client of the daemon listening on {@code socket}.
   *
   * @param vertx runs the calls
   * @param socket the daemon's local API socket
   * @param json reads and writes the daemon's JSON
   * @param clock reads a {@code Retry-After} date
   */
  public LocalApiClient(Vertx vertx, Path socket, ObjectMapper json, Clock clock) {
    this(vertx, socket, json, clock, CALL_TIMEOUT);
  }

  /** A client whose calls have the deadline {@code callTimeout}: tests of a held call need no 10 s. */
  LocalApiClient(Vertx vertx, Path socket, ObjectMapper json, Clock clock, Duration callTimeout) {
    this.callTimeout = callTimeout;
    this.vertx = vertx;
    this.socket = SocketAddress.domainSocketAddress(socket.toString());
    this.json = json;
    this.clock = clock;
    this.whoIsAnswers = new WhoIsAnswer.Reader(json);
    // Who-is is a client span of the API request it serves; the other calls are made outside of any.
    this.whoIsCalls = new LocalApiConnections(vertx, this.socket, callTimeout, MAX_ANSWER_BYTES);
    HttpClientOptions options = new HttpClientOptions().setKeepAlive(true).setDefaultHost(HOST).setDefaultPort(80)
        .setTracingPolicy(TracingPolicy.PROPAGATE);
    this.calls = vertx.createHttpClient(options, new PoolOptions().setHttp1MaxSize(4));
    // Each watch holds its connection for as long as the daemon runs, and is no span.
    this.watches = vertx.createHttpClient(new HttpClientOptions(options).setKeepAlive(false)
        .setTracingPolicy(TracingPolicy.IGNORE), new PoolOptions().setHttp1MaxSize(4));
  }

  /**
   * The node's status, without the peer table.
   *
   * @return the status
   */
  public Future<NodeStatus> status() {
    return call(HttpMethod.GET, "status?peers=false", null, Map.of(), callTimeout, "status")
        .map(answer -> read(answer, "status", NodeStatus::parse));
  }

  /**
   * Asks {@link #status()} every {@link #STARTUP_RETRY} until the daemon answers, as it does once its
   * socket is up.
   *
   * @param within how long to keep trying
   * @return the first status; fails with the last failure when {@code within} passed
   */
  public Future<NodeStatus> awaitStatus(Duration within) {
    Promise<NodeStatus> answered = Promise.promise();
    long deadline = System.nanoTime() + within.toNanos();
    tryStatus(answered, deadline);
    return answered.future();
  }

  private void tryStatus(Promise<NodeStatus> answered, long deadline) {
    status().onSuccess(answered::complete).onFailure(failure -> {
      if (System.nanoTime() - deadline >= 0) {
        answered.fail(failure);
      } else {
        vertx.setTimer(STARTUP_RETRY.toMillis(), t -> tryStatus(answered, deadline));
      }
    });
  }

  /**
   * Who is connected from {@code address}: the tailnet node and user behind a tailnet address, or
   * behind a loopback connection the daemon opened for a tailnet peer.
   *
   * @param address {@code ip:port}, with an IPv6 address in brackets
   * @return the caller; fails with status 404 when the address is no tailnet peer's
   */
  public Future<Caller> whoIs(String address) {
    return whoIs(address, UnaryOperator.identity());
  }

  /**
   * {@link #whoIs(String)}, whose failure {@code explain} words for the code that asked. One promise
   * carries the answer: this runs for every API request, and each future chained on another costs
   * an object and a hand-over.
   *
   * @param address {@code ip:port}, with an IPv6 address in brackets
   * @param explain the failure the caller gets for the client's own
   * @return the caller
   */
  Future<Caller> whoIs(String address, UnaryOperator<LocalApiException> explain) {
    Promise<Caller> identified = Promise.promise();
    whoIsCalls.get(API + "whois?addr=" + queryValue(address), (answer, failure) -> {
      try {
        identified.complete(caller(answer, failure));
      } catch (LocalApiException refused) {
        identified.fail(explain.apply(refused));
      } catch (RuntimeException unexpected) {
        identified.fail(explain.apply(unreadable("whois", unexpected)));
      }
    });
    return identified.future();
  }

  /** The caller a who-is {@code answer} names, or the call's {@code failure} as this client words it. */
  private Caller caller(HttpAnswer answer, Throwable failure) {
    if (failure != null) {
      throw failure instanceof TimeoutException ? timedOut("whois") : unreachable("whois", failure);
    }
    if (answer.status() / 100 != 2) {
      throw refused("whois", answer.status(), answer.retryAfter(), answer.body());
    }
    return decode(answer.body(), "whois", whoIsAnswers::read);
  }

  /**
   * {@code value} encoded as {@link URLEncoder} encodes it, without its general machinery for the
   * characters of an {@code ip:port} address, which every who-is sends.
   */
  static String queryValue(String value) {
    StringBuilder encoded = new StringBuilder(value.length() + 16);
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.') {
        encoded.append(c);
      } else if (c == ':') {
        encoded.append("%3A");
      } else if (c == '[') {
        encoded.append("%5B");
      } else if (c == ']') {
        encoded.append("%5D");
      } else {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
      }
    }
    return encoded.toString();
  }

  /**
   * The certificate of {@code domain} with its key.
   *
   * @param domain the node's DNS name without the trailing dot
   * @param minValidity when given, the daemon renews first if the certificate expires sooner
   * @return the pair; fails with status 429 and a {@link LocalApiException#retryAfter()} when rate-limited
   */
  public Future<CertPair> certPair(String domain, Optional<Duration> minValidity) {
    String uri = "cert/" + URLEncoder.encode(domain, StandardCharsets.UTF_8) + "?type=pair"
        + minValidity.map(d -> "&min_validity=" + d.toSeconds() + "s").orElse("");
    return call(HttpMethod.GET, uri, null, Map.of(), CERT_TIMEOUT, "cert")
        .map(answer -> {
          try {
            return CertPair.split(answer.body().toString(StandardCharsets.UTF_8));
          } catch (IllegalArgumentException e) {
            throw unreadable("cert", e);
          }
        });
  }

  /**
   * Starts the backend with {@code prefs} (which replace the daemon's whole preference set) and, to
   * register a node without state, {@code authKey}.
   *
   * @param prefs the complete preferences
   * @param authKey the auth key, or empty; a secret, sent nowhere else
   * @return completes when the daemon accepted the start
   */
  public Future<Void> start(JsonNode prefs, String authKey) {
    ObjectNode body = json.createObjectNode();
    body.put("FrontendLogID", "");
    body.set("UpdatePrefs", prefs);
    body.put("AuthKey", authKey);
    return call(HttpMethod.POST, "start", write(body), Map.of(), callTimeout, "start").mapEmpty();
  }

  /**
   * Starts a login that registers a fresh node key: with the last {@code start}'s auth key when it
   * had one, otherwise through a login URL a person opens ({@link NodeStatus#authUrl()}).
   *
   * @return completes when the login began
   */
  public Future<Void> loginInteractive() {
    return call(HttpMethod.POST, "login-interactive", Buffer.buffer(), Map.of(), callTimeout, "login-interactive")
        .mapEmpty();
  }

  /**
   * The daemon's current preferences.
   *
   * @return the preferences object
   */
  public Future<ObjectNode> prefs() {
    return call(HttpMethod.GET, "prefs", null, Map.of(), callTimeout, "prefs")
        .map(answer -> read(answer, "prefs", prefs -> {
          if (!prefs.isObject()) {
            throw new IllegalArgumentException("the preferences are not an object");
          }
          return (ObjectNode) prefs;
        }));
  }

  /**
   * The serve configuration.
   *
   * @return the configuration and its tag
   */
  public Future<ServeConfig> serveConfig() {
    return call(HttpMethod.GET, "serve-config", null, Map.of(), callTimeout, "serve-config")
        .map(answer -> new ServeConfig(read(answer, "serve-config", config -> config),
            Optional.ofNullable(answer.headers().get("Etag")).orElse("")));
  }

  /**
   * Replaces the serve configuration.
   *
   * @param config the complete new configuration
   * @param etag the tag of the version it replaces; empty overwrites any
   * @return completes when stored; fails with status 412 when the configuration changed meanwhile
   */
  public Future<Void> setServeConfig(JsonNode config, String etag) {
    return call(HttpMethod.POST, "serve-config", write(config), Map.of("If-Match", etag), callTimeout,
        "serve-config").mapEmpty();
  }

  /**
   * Watches the IPN bus: {@code lines} gets every notification, in order, on a Vert.x context.
   *
   * @param mask the watch options; 2 starts with the current state
   * @param lines called with each notification
   * @return the open watch, once the daemon answered; the stream itself has no deadline
   */
  public Future<BusWatch> watchBus(int mask, Handler<BusNotification> lines) {
    Promise<BusWatch> opened = Promise.promise();
    RequestOptions options = options(HttpMethod.GET, "watch-ipn-bus?mask=" + mask, Map.of());
    long deadline = failAfter(callTimeout, opened, "watch-ipn-bus");
    watches.request(options).onFailure(failure -> opened.tryFail(unreachable("watch-ipn-bus", failure)))
        .onSuccess(request -> {
          if (opened.future().isComplete()) {
            request.reset();
            return;
          }
          Promise<Void> ended = Promise.promise();
          BusWatch watch = new BusWatch(request.connection(), ended.future());
          request.send().onComplete(sent -> vertx.cancelTimer(deadline))
              .onFailure(failure -> opened.tryFail(unreachable("watch-ipn-bus", failure)))
              .onSuccess(response -> {
                if (response.statusCode() != 200) {
                  readAll(response, request).onComplete(body -> opened.tryFail(refused("watch-ipn-bus",
                      response.statusCode(), response.getHeader("Retry-After"), body.succeeded() ? body.result() : null)));
                  return;
                }
                stream(response, watch, ended, lines);
                if (!opened.tryComplete(watch)) {
                  watch.close();
                }
              });
        });
    return opened.future();
  }

  private void stream(HttpClientResponse response, BusWatch watch, Promise<Void> ended,
      Handler<BusNotification> lines) {
    RecordParser parser = RecordParser.newDelimited("\n").maxRecordSize(MAX_ANSWER_BYTES);
    parser.handler(line -> {
      if (ended.future().isComplete() || line.length() == 0) {
        return;
      }
      BusNotification notification;
      try {
        notification = BusNotification.parse(json.readTree(line.getBytes()));
      } catch (java.io.IOException | IllegalArgumentException e) {
        ended.tryFail(unreadable("watch-ipn-bus", e));
        watch.close();
        return;
      }
      lines.handle(notification);
    });
    parser.exceptionHandler(failure -> {
      ended.tryFail(unreadable("watch-ipn-bus", failure));
      watch.close();
    });
    response.handler(parser);
    Handler<Throwable> broken = failure -> endWatch(watch, ended, failure);
    response.exceptionHandler(broken);
    response.endHandler(v -> endWatch(watch, ended, null));
    response.request().connection().closeHandler(v -> endWatch(watch, ended, null));
  }

  private static void endWatch(BusWatch watch, Promise<Void> ended, Throwable failure) {
    if (watch.closing()) {
      ended.tryComplete();
    } else {
      ended.tryFail(new LocalApiException(LocalApiException.NO_ANSWER,
          "tailscaled ended the IPN bus stream" + (failure == null ? "" : ": " + failure.getMessage()),
          Optional.empty(), failure));
    }
  }

  /**
   * Closes the client's connections; a watch ends.
   *
   * @return completes when closed
   */
  public Future<Void> close() {
    return Future.join(whoIsCalls.close(), calls.close(), watches.close()).mapEmpty();
  }

  /** An answer of the daemon with a 2xx status. */
  private record Answer(int status, MultiMap headers, Buffer body) {}

  private Future<Answer> call(HttpMethod method, String uri, Buffer body, Map<String, String> headers,
      Duration timeout, String what) {
    Promise<Answer> answered = Promise.promise();
    long deadline = failAfter(timeout, answered, what);
    calls.request(options(method, uri, headers))
        .onFailure(failure -> answered.tryFail(unreachable(what, failure)))
        .onSuccess(request -> {
          answered.future().onFailure(failure -> request.reset(0, failure));
          (body == null ? request.send() : request.send(body))
              .compose(response -> readAll(response, request).map(bytes -> {
                if (response.statusCode() / 100 != 2) {
                  throw refused(what, response.statusCode(), response.getHeader("Retry-After"), bytes);
                }
                return new Answer(response.statusCode(), response.headers(), bytes);
              }))
              .onComplete(done -> {
                if (done.succeeded()) {
                  answered.tryComplete(done.result());
                } else {
                  Throwable failure = done.cause();
                  answered.tryFail(failure instanceof LocalApiException ? failure : unreachable(what, failure));
                }
              });
        });
    return answered.future().onComplete(done -> vertx.cancelTimer(deadline));
  }

  /**
   * Fails {@code answered} as timed out once {@code timeout} passed, on the context of the code that
   * made the call (a timer's handler runs on the context that set it).
   *
   * @return the timer, to cancel once the call ended
   */
  private long failAfter(Duration timeout, Promise<?> answered, String what) {
    return vertx.setTimer(Math.max(1, timeout.toMillis()), t -> answered.tryFail(timedOut(what)));
  }

  private RequestOptions options(HttpMethod method, String uri, Map<String, String> headers) {
    RequestOptions options = new RequestOptions().setServer(socket).setHost(HOST).setPort(80)
        .setMethod(method).setURI(API + uri);
    headers.forEach(options::putHeader);
    return options;
  }

  /** The body up to {@link #MAX_ANSWER_BYTES}; a longer one fails and resets the request. */
  private static Future<Buffer> readAll(HttpClientResponse response, HttpClientRequest request) {
    Promise<Buffer> read = Promise.promise();
    Buffer body = Buffer.buffer();
    response.handler(chunk -> {
      if (body.length() + chunk.length() > MAX_ANSWER_BYTES) {
        read.tryFail(new IllegalStateException("the answer is longer than " + MAX_ANSWER_BYTES + " bytes"));
        request.reset();
        return;
      }
      body.appendBuffer(chunk);
    });
    response.exceptionHandler(read::tryFail);
    response.endHandler(v -> read.tryComplete(body));
    return read.future();
  }

  /** Reads an answer's bytes; fails on JSON it can't read or a member of the wrong type. */
  @FunctionalInterface
  private interface Decoder<T> {
    T decode(byte[] body) throws java.io.IOException;
  }

  private <T> T read(Answer answer, String what, java.util.function.Function<JsonNode, T> parse) {
    return decode(answer.body(), what, bytes -> parse.apply(json.readTree(bytes)));
  }

  private static <T> T decode(Buffer body, String what, Decoder<T> decoder) {
    try {
      return decoder.decode(body.getBytes());
    } catch (java.io.IOException | IllegalArgumentException e) {
      throw unreadable(what, e);
    }
  }

  private Buffer write(JsonNode body) {
    try {
      return Buffer.buffer(json.writeValueAsBytes(body));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree always serializes", e);
    }
  }

  private LocalApiException refused(String what, int status, String retryAfter, Buffer body) {
    String text = body == null ? "" : errorText(body);
    return new LocalApiException(status,
        "tailscaled refused " + what + " (" + status + ")" + (text.isEmpty() ? "" : ": " + text),
        retryAfter(retryAfter), null);
  }

  /** The daemon's error text: a JSON object's {@code error} member in any case, else the trimmed text. */
  private String errorText(Buffer body) {
    String text = body.toString(StandardCharsets.UTF_8).trim();
    if (text.startsWith("{")) {
      try {
        JsonNode error = json.readTree(text);
        for (Map.Entry<String, JsonNode> member : error.properties()) {
          if (member.getKey().equalsIgnoreCase("error") && member.getValue().isTextual()) {
            text = member.getValue().textValue();
            break;
          }
        }
      } catch (java.io.IOException e) {
        // Not JSON after all: the text is the message.
      }
    }
    return text.length() > MAX_ERROR_CHARS ? text.substring(0, MAX_ERROR_CHARS) + "…" : text;
  }

  /** {@code Retry-After} in seconds or as an HTTP date. */
  private Optional<Duration> retryAfter(String header) {
    if (header == null || header.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Duration.ofSeconds(Math.max(0, Long.parseLong(header.trim()))));
    } catch (NumberFormatException notSeconds) {
      try {
        ZonedDateTime at = ZonedDateTime.parse(header.trim(), DateTimeFormatter.RFC_1123_DATE_TIME);
        Duration wait = Duration.between(clock.instant(), at.toInstant());
        return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
      } catch (DateTimeParseException notDate) {
        return Optional.empty();
      }
    }
  }

  private static LocalApiException unreadable(String what, Throwable cause) {
    // Jackson's own message, without the location lines it appends.
    String why = cause instanceof JsonProcessingException json ? json.getOriginalMessage() : cause.getMessage();
    return new LocalApiException(LocalApiException.NO_ANSWER, "tailscaled's " + what + " answer is unreadable: " + why,
        Optional.empty(), cause);
  }

  private static LocalApiException unreachable(String what, Throwable cause) {
    return new LocalApiException(LocalApiException.NO_ANSWER,
        "tailscaled didn't answer " + what + ": " + cause.getMessage(), Optional.empty(), cause);
  }

  private static LocalApiException timedOut(String what) {
    return new LocalApiException(LocalApiException.NO_ANSWER, "tailscaled didn't answer " + what + " in time",
        Optional.empty(), new TimeoutException(what));
  }
}
