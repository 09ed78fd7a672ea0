package dev.svc.server.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.SocketAddress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A faithful fake of tailscaled's local API (notes/tailnet.md §4) for tests of the production client,
 * bring-up and who-is path. It serves on a unix socket in a fresh 0700 directory, exactly as the
 * daemon does: it refuses a wrong {@code Host} and any {@code Origin} or {@code Referer}, answers
 * errors as the daemon's plain text or JSON, streams the IPN bus, and runs a scripted control plane
 * (auth keys that are valid, rejected or need approval; interactive logins a test completes). Peers
 * are registered by tailnet IP, loopback connections mapped to them as the userspace daemon's proxy
 * map does, and capability maps are returned byte for byte as registered. Every request is recorded.
 *
 * <p>All state changes run on the fake's Vert.x context; the test hooks may be called from any thread.
 */
public final class FakeTailscaled {

  /** The daemon version the fake imitates. */
  public static final String VERSION = "1.103.0-fake";
  /** The tailnet's MagicDNS suffix. */
  public static final String SUFFIX = "tail-fake.ts.net";
  /** The node's IPv4 tailnet address once Running. */
  public static final String NODE_IP = "100.88.12.34";

  private static final String HOST = "local-tailscaled.sock";
  // Header names and values encoded once: the fake shares the cores of load tests with the server.
  private static final CharSequence TAILSCALE_VERSION = HttpHeaders.createOptimized("Tailscale-Version");
  private static final CharSequence VERSION_VALUE = HttpHeaders.createOptimized(VERSION);
  private static final CharSequence TAILSCALE_CAP = HttpHeaders.createOptimized("Tailscale-Cap");
  private static final CharSequence CAP_VALUE = HttpHeaders.createOptimized("145");
  private static final CharSequence APPLICATION_JSON = HttpHeaders.createOptimized("application/json");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the control plane does with an auth key. */
  public enum KeyOutcome {
    /** Registers the node. */
    VALID,
    /** Refuses it: the bus reports an {@code ErrMessage}, the node stays in NeedsLogin. */
    REJECTED,
    /** Registers the node, which then waits for an administrator's approval. */
    NEEDS_APPROVAL
  }

  /** A failure the next request to one endpoint gets. */
  public enum Fault {
    /** 200 with a body that isn't JSON. */
    MALFORMED_JSON,
    /** 200 announcing a longer body than it sends, then the connection closes. */
    CLOSE_MID_BODY,
    /** 500 with a plain text error. */
    ERROR_500,
    /** 429 with {@code Retry-After: 7}. */
    RATE_LIMITED,
    /** No answer at all: the request is held, as a starting daemon holds it. */
    HOLD
  }

  /**
   * One request the fake received.
   *
   * @param method the method
   * @param path the path
   * @param query the query, or null
   * @param headers the headers
   * @param body the body as text
   */
  public record Recorded(HttpMethod method, String path, String query, MultiMap headers, String body) {}

  /** A tailnet peer and its who-is answer, made once: the daemon's who-is is cheap, and so is the fake's. */
  private record Peer(String ip, Buffer whoIs) {

    static Peer of(String ip, String loginName, List<String> tags, String capMapJson) {
      boolean tagged = !tags.isEmpty();
      ObjectNode node = object().put("ID", 421337).put("StableID", "n" + ip).put("Name", "peer." + SUFFIX + ".")
          .put("User", tagged ? 1 : 7002);
      node.set("Addresses", array(ip + "/32"));
      if (tagged) {
        node.set("Tags", JSON.valueToTree(tags));
      }
      ObjectNode user = object().put("ID", tagged ? 1 : 7002).put("LoginName", loginName)
          .put("DisplayName", tagged ? "Tagged Devices" : loginName);
      // CapMap goes out as registered, byte for byte, wrong types and all.
      return new Peer(ip, Buffer.buffer("{\"Node\":" + node + ",\"UserProfile\":" + user + ",\"CapMap\":" + capMapJson
          + "}"));
    }
  }

  private final Vertx vertx;
  private final Path socket;
  // Appended on every request, also under load: a copy-on-write list would copy it each time.
  private final Queue<Recorded> requests = new ConcurrentLinkedQueue<>();
  private final Map<String, KeyOutcome> keys = new ConcurrentHashMap<>();
  private final Map<String, Peer> peers = new ConcurrentHashMap<>();
  private final Map<String, String> proxyMap = new ConcurrentHashMap<>();
  private final Map<String, Fault> faults = new ConcurrentHashMap<>();
  private volatile int retryAfterSeconds = 7;
  private final List<HttpServerResponse> watchers = new CopyOnWriteArrayList<>();
  private HttpServer server;

  // Node state; only touched on the fake's context.
  private volatile int state; // the bus number of the backend state
  private volatile boolean haveNodeKey;
  private volatile String authUrl = "";
  private volatile String lastAuthKey = "";
  private volatile int logins;
  private volatile boolean hostnameTaken;
  private volatile boolean readOnly;
  private volatile boolean certificatesPermitted;
  private volatile boolean tun;
  private volatile ObjectNode prefs = defaultPrefs();
  private volatile JsonNode serveConfig = NullNode.getInstance();
  private volatile String[] certificate;
  private volatile int issued;
  private volatile boolean httpsCerts = true;
  private volatile String loopbackDefault;
  private volatile boolean recording = true;

  private FakeTailscaled(Vertx vertx, Path socket) {
    this.vertx = vertx;
    this.socket = socket;
  }

  /**
   * Starts a fake daemon without node state, in NoState, on a socket in a fresh 0700 directory.
   *
   * @param vertx runs the fake
   * @return the listening fake
   */
  public static Future<FakeTailscaled> start(Vertx vertx) {
    try {
      Path dir = Files.createTempDirectory("fake-ts", PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rwx------")));
      return start(vertx, dir.resolve("tailscaled.sock"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Starts a fake daemon without node state on {@code socket}.
   *
   * @param vertx runs the fake
   * @param socket where to listen; its directory must exist
   * @return the listening fake
   */
  public static Future<FakeTailscaled> start(Vertx vertx, Path socket) {
    FakeTailscaled fake = new FakeTailscaled(vertx, socket);
    return fake.listen(socket);
  }

  private Future<FakeTailscaled> listen(Path at) {
    // No WebSocket compression: the local API has no WebSockets, and the extension handler would
    // look at every answer.
    return vertx.createHttpServer(new HttpServerOptions().setPerMessageWebSocketCompressionSupported(false)
            .setPerFrameWebSocketCompressionSupported(false)).requestHandler(this::handle)
        .listen(SocketAddress.domainSocketAddress(at.toString()))
        .map(s -> {
          server = s;
          return this;
        });
  }

  /**
   * The socket the fake listens on.
   *
   * @return the socket's path
   */
  public Path socket() {
    return socket;
  }

  /**
   * Every request so far, in order.
   *
   * @return the recorded requests
   */
  public List<Recorded> requests() {
    return List.copyOf(requests);
  }

  /**
   * The recorded requests to {@code path} (such as {@code /localapi/v0/start}).
   *
   * @param path the request path
   * @return the requests, in order
   */
  public List<Recorded> requests(String path) {
    return requests.stream().filter(r -> r.path().equals(path)).toList();
  }

  /**
   * Decides what the control plane does with {@code key}; an unknown key is rejected.
   *
   * @param key an auth key
   * @param outcome what happens when it is used
   * @return this fake
   */
  public FakeTailscaled key(String key, KeyOutcome outcome) {
    keys.put(key, outcome);
    return this;
  }

  /**
   * Gives the node state, as after an earlier registration: a start then brings it to Running
   * without a key.
   *
   * @return this fake
   */
  public FakeTailscaled enrolled() {
    haveNodeKey = true;
    return this;
  }

  /**
   * Makes the daemon run already, as a sidecar that logged in by itself.
   *
   * @return this fake
   */
  public FakeTailscaled running() {
    haveNodeKey = true;
    state = 6;
    return this;
  }

  /**
   * Refuses every write (start, login, prefs changes, serve configuration), as a root daemon does
   * for a non-root caller.
   *
   * @return this fake
   */
  public FakeTailscaled readOnly() {
    readOnly = true;
    return this;
  }

  /**
   * Lets a read-only caller fetch certificates, as {@code TS_PERMIT_CERT_UID} names its user.
   *
   * @return this fake
   */
  public FakeTailscaled permitCertificates() {
    certificatesPermitted = true;
    return this;
  }

  /**
   * Reports a TUN device instead of userspace networking.
   *
   * @return this fake
   */
  public FakeTailscaled tun() {
    tun = true;
    return this;
  }

  /**
   * Makes the control plane give the node a suffixed name ({@code svc-1}), as after lost state.
   *
   * @return this fake
   */
  public FakeTailscaled hostnameTaken() {
    hostnameTaken = true;
    return this;
  }

  /**
   * Registers a tailnet peer.
   *
   * @param ip the peer's tailnet IP
   * @param loginName its user's login, or {@code tagged-devices} for a tagged device
   * @param tags its tags; non-empty for a tagged device
   * @param capMapJson the raw JSON of its {@code CapMap} toward this node, returned byte for byte
   * @return this fake
   */
  public FakeTailscaled peer(String ip, String loginName, List<String> tags, String capMapJson) {
    peers.put(ip, Peer.of(ip, loginName, tags, capMapJson));
    return this;
  }

  /**
   * Records that the loopback connection from {@code loopback} was opened for the peer {@code peerIp},
   * as userspace tailscaled's proxy map does.
   *
   * @param loopback {@code 127.0.0.1:<port>}
   * @param peerIp a registered peer's IP
   * @return this fake
   */
  public FakeTailscaled mapLoopback(String loopback, String peerIp) {
    proxyMap.put(loopback, peerIp);
    return this;
  }

  /**
   * Forgets the loopback connection from {@code loopback}, as the daemon does once it closed.
   *
   * @param loopback {@code 127.0.0.1:<port>}
   * @return this fake
   */
  public FakeTailscaled unmapLoopback(String loopback) {
    proxyMap.remove(loopback);
    return this;
  }

  /**
   * Answers who-is of every unmapped loopback connection with the peer {@code peerIp}, as if each had
   * come through the tailnet from it: for load tests whose client picks its own source ports.
   *
   * @param peerIp a registered peer's IP
   * @return this fake
   */
  public FakeTailscaled everyLoopbackFrom(String peerIp) {
    loopbackDefault = peerIp;
    return this;
  }

  /**
   * Stops recording requests: a load test's calls would fill the memory, and copying each one's
   * headers costs more than answering it, which a real daemon doesn't pay.
   *
   * @return this fake
   */
  public FakeTailscaled unrecorded() {
    recording = false;
    return this;
  }

  /**
   * The next request to {@code path} fails with {@code fault}.
   *
   * @param path the request path, such as {@code /localapi/v0/whois}
   * @param fault the failure
   * @return this fake
   */
  public FakeTailscaled failNext(String path, Fault fault) {
    faults.put(path, fault);
    return this;
  }

  /** A person completes the pending interactive login. */
  public void completeLogin() {
    onContext(() -> {
      authUrl = "";
      haveNodeKey = true;
      emit(object().set("LoginFinished", object()));
      toState(5);
      toState(6);
    });
  }

  /** An administrator approves the device waiting in NeedsMachineAuth. */
  public void approveDevice() {
    onContext(() -> toState(6));
  }

  /** The node key expires: the node leaves Running for NeedsLogin. */
  public void expireNodeKey() {
    onContext(() -> toState(2));
  }

  /** The node loses its connection and goes back to Starting. */
  public void dropToStarting() {
    onContext(() -> toState(5));
  }

  /** The node gets to Running again. */
  public void backToRunning() {
    onContext(() -> toState(6));
  }

  /** The {@code Retry-After} of {@link Fault#RATE_LIMITED}, 7 seconds unless set. */
  public FakeTailscaled retryAfter(int seconds) {
    retryAfterSeconds = seconds;
    return this;
  }

  /**
   * Writes {@code line} and a newline on every bus stream as it is: bad input on the bus, such as a
   * line that isn't JSON or a notification of the wrong shape.
   */
  public void busLine(String line) {
    onContext(() -> watchers.forEach(watcher -> watcher.write(line + "\n")));
  }

  /**
   * Ends every bus stream, as a daemon that stops does.
   *
   * @return completes when the streams ended
   */
  public Future<Void> endBusStreams() {
    io.vertx.core.Promise<Void> ended = io.vertx.core.Promise.promise();
    onContext(() -> {
      for (HttpServerResponse watcher : watchers) {
        watcher.reset();
      }
      watchers.clear();
      ended.complete();
    });
    return ended.future();
  }

  /**
   * Stops the fake and removes its socket.
   *
   * @return completes when stopped
   */
  public Future<Void> close() {
    return (server == null ? Future.<Void>succeededFuture() : server.close()).eventually(() -> {
      try {
        Files.deleteIfExists(socket);
      } catch (IOException e) {
        // A temp file a later run never reuses.
      }
      return Future.succeededFuture();
    });
  }

  // --- the local API

  /**
   * Serves one request as Go's {@code net/http} server, which serves the daemon's local API, does:
   * requests pipelined on a connection one after the other, each answer written and flushed on its
   * own as its handler returns. Vert.x also serves pipelined requests in order, but an answer ended
   * while it reads holds its flush to the end of the read, so the answers to a batch of requests
   * would leave together in one write, which no real daemon does. Answering in a task of its own,
   * after the read, flushes each answer when it ends.
   */
  private void handle(HttpServerRequest request) {
    request.body().onSuccess(body -> vertx.runOnContext(v -> answer(request, body)));
  }

  private void answer(HttpServerRequest request, Buffer body) {
    if (recording) {
      requests.add(new Recorded(request.method(), request.path(), request.query(),
          MultiMap.caseInsensitiveMultiMap().addAll(request.headers()), body.toString(StandardCharsets.UTF_8)));
    }
    HttpServerResponse response = request.response()
        .putHeader(TAILSCALE_VERSION, VERSION_VALUE).putHeader(TAILSCALE_CAP, CAP_VALUE);
    String host = request.headers().get(HttpHeaders.HOST);
    if ((host != null && !host.equals(HOST)) || request.headers().contains(HttpHeaders.ORIGIN)
        || request.headers().contains(HttpHeaders.REFERER)) {
      text(response, 403, "invalid localapi request");
      return;
    }
    Fault fault = faults.remove(request.path());
    if (fault != null) {
      inject(response, fault);
      return;
    }
    route(request, response, body);
  }

  private void route(HttpServerRequest request, HttpServerResponse response, Buffer body) {
    switch (request.path()) {
      case "/localapi/v0/status" -> json(response, 200, status());
      case "/localapi/v0/whois" -> whois(request, response);
      case "/localapi/v0/start" -> post(request, response, "access denied", () -> start(response, body));
      case "/localapi/v0/login-interactive" -> post(request, response, "login access denied", () -> {
        loginInteractive();
        response.setStatusCode(204).end();
      });
      case "/localapi/v0/prefs" -> prefs(request, response, body);
      case "/localapi/v0/watch-ipn-bus" -> watch(request, response);
      case "/localapi/v0/serve-config" -> serveConfig(request, response, body);
      case "/localapi/v0/logout" -> post(request, response, "logout access denied",
          () -> response.setStatusCode(204).end());
      case "/localapi/v0/shutdown" -> text(response, 403, "shutdown access denied by policy");
      default -> {
        if (request.path().startsWith("/localapi/v0/cert/")) {
          cert(request, response);
        } else {
          text(response, 404, "404 page not found");
        }
      }
    }
  }

  /**
   * Makes the next certificate a new one, as when the daemon renewed it.
   *
   * @return this fake
   */
  public FakeTailscaled renewCertificate() {
    certificate = null;
    return this;
  }

  /**
   * Turns HTTPS certificates off for the tailnet: no {@code CertDomains}.
   *
   * @return this fake
   */
  public FakeTailscaled disableHttpsCerts() {
    httpsCerts = false;
    return this;
  }

  /**
   * The certificates issued so far.
   *
   * @return how many pairs the fake made
   */
  public int certificatesIssued() {
    return issued;
  }

  private void cert(HttpServerRequest request, HttpServerResponse response) {
    if (readOnly && !certificatesPermitted) {
      text(response, 403, "cert access denied");
      return;
    }
    String domain = request.path().substring("/localapi/v0/cert/".length());
    String type = param(request, "type", "cert");
    if (!List.of("cert", "key", "pair").contains(type)) {
      text(response, 400, "invalid type");
      return;
    }
    String minValidity = param(request, "min_validity", null);
    if (minValidity != null && !minValidity.matches("[0-9]+(s|m|h)")) {
      text(response, 400, "invalid 'min_validity' parameter");
      return;
    }
    if (state != 6) {
      text(response, 500, "no netmap available");
      return;
    }
    if (!httpsCerts) {
      text(response, 500, "your Tailscale account does not support getting TLS certs");
      return;
    }
    String name = label() + "." + SUFFIX;
    if (!domain.equals(name)) {
      text(response, 500, "invalid domain \"" + domain + "\"; must be one of [" + name + "]");
      return;
    }
    // Certificates last one day here, so any min_validity of a day or more renews.
    boolean renew = minValidity != null && !minValidity.equals("0s");
    vertx.executeBlocking(() -> {
      if (certificate == null || renew) {
        certificate = issue(name);
        issued++;
      }
      return certificate;
    }).onComplete(made -> {
      if (made.failed()) {
        text(response, 500, "acme: " + made.cause().getMessage());
        return;
      }
      String[] pair = made.result();
      String body = switch (type) {
        case "key" -> pair[0];
        case "pair" -> pair[0] + pair[1];
        default -> pair[1];
      };
      response.setStatusCode(200).putHeader("Content-Type", "text/plain").end(body);
    });
  }

  /** A self-signed ECDSA P-256 certificate for {@code name} and its SEC1 key, made with openssl. */
  private static String[] issue(String name) throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("fake-cert");
    Path pkcs8 = dir.resolve("k8.pem");
    Path key = dir.resolve("k.pem");
    Path cert = dir.resolve("c.pem");
    run("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", pkcs8.toString(), "-out", cert.toString(), "-days", "1", "-subj", "/CN=" + name,
        "-addext", "subjectAltName=DNS:" + name);
    run("openssl", "ec", "-in", pkcs8.toString(), "-out", key.toString());
    return new String[] {Files.readString(key), Files.readString(cert)};
  }

  private static void run(String... command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.waitFor() != 0) {
      throw new IOException(String.join(" ", command) + " failed: " + output);
    }
  }

  private void post(HttpServerRequest request, HttpServerResponse response, String denied, Runnable action) {
    if (request.method() != HttpMethod.POST) {
      text(response, 400, "want POST");
    } else if (readOnly) {
      text(response, 403, denied);
    } else {
      action.run();
    }
  }

  private void inject(HttpServerResponse response, Fault fault) {
    switch (fault) {
      case MALFORMED_JSON -> response.setStatusCode(200).putHeader("Content-Type", "application/json")
          .end("{\"Node\": {\"Tags\": [");
      case CLOSE_MID_BODY -> {
        response.setStatusCode(200).putHeader("Content-Type", "application/json").putHeader("Content-Length", "4096");
        response.write("{\"Node\": {").onComplete(written -> response.reset());
      }
      case ERROR_500 -> text(response, 500, "backend error: injected");
      case RATE_LIMITED -> {
        response.putHeader("Retry-After", String.valueOf(retryAfterSeconds));
        text(response, 429, "rate limited: injected");
      }
      case HOLD -> {
        // Never answered: the client's deadline has to end the call.
      }
    }
  }

  private ObjectNode status() {
    ObjectNode status = object();
    status.put("Version", VERSION);
    status.put("TUN", tun);
    status.put("BackendState", STATES[state]);
    if (haveNodeKey) {
      status.put("HaveNodeKey", true);
    }
    status.put("AuthURL", authUrl);
    boolean up = state == 6;
    status.set("TailscaleIPs", up ? array(NODE_IP, "fd7a:115c:a1e0::5801:c22") : NullNode.getInstance());
    ObjectNode self = status.putObject("Self");
    self.put("ID", "nSvc1234CNTRL");
    self.put("HostName", hostname());
    self.put("DNSName", up ? label() + "." + SUFFIX + "." : "");
    self.put("OS", "linux");
    self.set("TailscaleIPs", up ? array(NODE_IP) : NullNode.getInstance());
    status.putNull("Health");
    status.put("MagicDNSSuffix", up ? SUFFIX : "");
    if (up) {
      status.putObject("CurrentTailnet").put("Name", "corp.example").put("MagicDNSSuffix", SUFFIX)
          .put("MagicDNSEnabled", true);
      status.set("CertDomains", httpsCerts ? array(label() + "." + SUFFIX) : NullNode.getInstance());
    } else {
      status.putNull("CurrentTailnet");
      status.putNull("CertDomains");
    }
    return status;
  }

  private static final String[] STATES = {
    "NoState", "InUseOtherUser", "NeedsLogin", "NeedsMachineAuth", "Stopped", "Starting", "Running"
  };

  private String hostname() {
    JsonNode name = prefs.get("Hostname");
    return name == null || name.asText().isEmpty() ? "svc" : name.asText();
  }

  private String label() {
    return hostnameTaken ? hostname() + "-1" : hostname();
  }

  private void whois(HttpServerRequest request, HttpServerResponse response) {
    String addr = param(request, "addr", null);
    if (addr == null || addr.isEmpty()) {
      text(response, 400, "missing 'addr' parameter");
      return;
    }
    String ip = ipOf(addr);
    if (ip == null) {
      text(response, 400, "invalid 'addr' parameter");
      return;
    }
    Peer peer = peers.get(ip);
    if (peer == null && proxyMap.containsKey(addr)) {
      peer = peers.get(proxyMap.get(addr));
    }
    if (peer == null && loopbackDefault != null && ip.equals("127.0.0.1")) {
      peer = peers.get(loopbackDefault);
    }
    if (peer == null) {
      text(response, 404, "no match for IP:port");
      return;
    }
    response.setStatusCode(200).putHeader(HttpHeaders.CONTENT_TYPE, APPLICATION_JSON).end(peer.whoIs());
  }

  /**
   * The first value of the query parameter {@code name}, as Go's {@code FormValue} reads it: pairs
   * split at {@code &}, names and values unescaped ({@code +} is a space), a pair that holds a
   * {@code ;} or doesn't unescape skipped; {@code absent} when no pair names it.
   */
  private static String param(HttpServerRequest request, String name, String absent) {
    String query = request.query();
    if (query == null) {
      return absent;
    }
    for (int from = 0; from <= query.length(); ) {
      int end = query.indexOf('&', from);
      end = end < 0 ? query.length() : end;
      int equals = query.indexOf('=', from);
      int nameEnd = equals < 0 || equals > end ? end : equals;
      try {
        if (query.substring(from, end).indexOf(';') < 0 && unescape(query.substring(from, nameEnd)).equals(name)) {
          return nameEnd == end ? "" : unescape(query.substring(nameEnd + 1, end));
        }
      } catch (IllegalArgumentException badEscape) {
        // Go skips the pair.
      }
      from = end + 1;
    }
    return absent;
  }

  private static String unescape(String text) {
    return text.indexOf('%') < 0 && text.indexOf('+') < 0 ? text : URLDecoder.decode(text, StandardCharsets.UTF_8);
  }

  /** The IP of an {@code ip:port} or bare-IP address, unbracketed; null when it isn't one. */
  private static String ipOf(String addr) {
    if (addr.startsWith("[")) {
      int close = addr.indexOf(']');
      return close < 0 ? null : addr.substring(1, close);
    }
    int colon = addr.lastIndexOf(':');
    if (colon >= 0 && addr.indexOf(':') == colon) {
      return addr.substring(0, colon);
    }
    return addr.matches("[0-9a-fA-F.:]+") ? addr : null;
  }

  private void start(HttpServerResponse response, Buffer body) {
    JsonNode options;
    try {
      options = JSON.readTree(body.getBytes());
    } catch (IOException e) {
      text(response, 400, "invalid JSON: " + e.getMessage());
      return;
    }
    JsonNode update = options.get("UpdatePrefs");
    if (update instanceof ObjectNode replacement) {
      prefs = replacement.deepCopy();
    }
    lastAuthKey = options.path("AuthKey").asText("");
    response.setStatusCode(204).end();
    if (haveNodeKey) {
      toState(5);
      toState(6);
    } else if (!lastAuthKey.isEmpty()) {
      useKey(lastAuthKey);
    } else {
      toState(2);
    }
  }

  private void useKey(String key) {
    toState(2);
    switch (keys.getOrDefault(key, KeyOutcome.REJECTED)) {
      case VALID -> {
        haveNodeKey = true;
        toState(5);
        toState(6);
      }
      case REJECTED -> emit(object().put("ErrMessage", "invalid key: unable to validate API key"));
      case NEEDS_APPROVAL -> {
        haveNodeKey = true;
        toState(3);
      }
    }
  }

  private void loginInteractive() {
    if (!lastAuthKey.isEmpty()) {
      useKey(lastAuthKey);
      return;
    }
    if (authUrl.isEmpty()) {
      authUrl = "https://login.example.test/a/" + (++logins);
    }
    toState(2);
    emit(object().put("BrowseToURL", authUrl));
  }

  private void prefs(HttpServerRequest request, HttpServerResponse response, Buffer body) {
    if (request.method() == HttpMethod.GET) {
      json(response, 200, prefs);
      return;
    }
    if (request.method() != HttpMethod.PATCH) {
      text(response, 405, "method not allowed");
      return;
    }
    if (readOnly) {
      text(response, 403, "prefs write access denied");
      return;
    }
    try {
      JsonNode masked = JSON.readTree(body.getBytes());
      ObjectNode changed = prefs.deepCopy();
      masked.properties().forEach(member -> {
        if (member.getKey().endsWith("Set") && member.getValue().asBoolean()) {
          String field = member.getKey().substring(0, member.getKey().length() - 3);
          changed.set(field, masked.get(field));
        }
      });
      prefs = changed;
      json(response, 200, prefs);
    } catch (IOException e) {
      json(response, 400, object().put("Error", e.getMessage()));
    }
  }

  private void watch(HttpServerRequest request, HttpServerResponse response) {
    int mask;
    try {
      mask = Integer.parseInt(param(request, "mask", "0"));
    } catch (NumberFormatException e) {
      text(response, 400, "bad mask");
      return;
    }
    response.setChunked(true).putHeader("Content-Type", "application/json");
    if ((mask & 2) != 0) {
      ObjectNode first = object().put("Version", VERSION).put("SessionID", "fake-session").put("State", state);
      if (!authUrl.isEmpty()) {
        first.put("BrowseToURL", authUrl);
      }
      response.write(first + "\n");
    } else {
      response.write("");
    }
    watchers.add(response);
    response.closeHandler(v -> watchers.remove(response));
  }

  private void serveConfig(HttpServerRequest request, HttpServerResponse response, Buffer body) {
    if (request.method() == HttpMethod.GET) {
      response.putHeader("Etag", etag());
      json(response, 200, serveConfig);
      return;
    }
    if (request.method() != HttpMethod.POST) {
      text(response, 405, "method not allowed");
      return;
    }
    if (readOnly) {
      text(response, 403, "serve config denied");
      return;
    }
    String ifMatch = request.getHeader("If-Match");
    if (ifMatch != null && !ifMatch.isEmpty() && !ifMatch.equals(etag())) {
      text(response, 412, "preconditions failed");
      return;
    }
    if (state != 6) {
      json(response, 500, object().put("error", "updating config: netMap is nil"));
      return;
    }
    try {
      serveConfig = JSON.readTree(body.getBytes());
      response.setStatusCode(200).end();
    } catch (IOException e) {
      text(response, 400, e.getMessage());
    }
  }

  private String etag() {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(serveConfig.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  // --- state and the bus

  private void toState(int next) {
    state = next;
    emit(object().put("State", next));
  }

  private void emit(ObjectNode line) {
    for (HttpServerResponse watcher : watchers) {
      watcher.write(line + "\n");
    }
  }

  private void onContext(Runnable change) {
    vertx.runOnContext(v -> change.run());
  }

  private static void text(HttpServerResponse response, int status, String message) {
    response.setStatusCode(status).putHeader("Content-Type", "text/plain; charset=utf-8").end(message + "\n");
  }

  private static void json(HttpServerResponse response, int status, JsonNode body) {
    response.setStatusCode(status).putHeader("Content-Type", "application/json").end(body.toPrettyString());
  }

  private static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  private static ArrayNode array(String... values) {
    ArrayNode array = JsonNodeFactory.instance.arrayNode();
    for (String value : values) {
      array.add(value);
    }
    return array;
  }

  private static ObjectNode defaultPrefs() {
    ObjectNode prefs = object();
    prefs.put("ControlURL", "https://controlplane.tailscale.com");
    prefs.put("WantRunning", false);
    prefs.put("Hostname", "");
    prefs.put("CorpDNS", true);
    prefs.set("AdvertiseTags", NullNode.getInstance());
    return prefs;
  }
}
