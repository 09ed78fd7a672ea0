package dev.svc.server.mesh.tailnet;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.server.StartException;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.mesh.Caller;
import dev.svc.server.mesh.Mesh;
import dev.svc.server.mesh.MeshStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.SocketAddress;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The mesh of a real tailnet, through a tailscaled daemon's local API: our own child in
 * {@code mesh.mode: managed} ({@link TailscaledProcess}), or a daemon someone else runs at
 * {@code mesh.socket} in {@code mesh.mode: external}. Bring-up follows notes/tailnet.md §3.3: watch
 * the IPN bus first, start the backend when this user may and it doesn't run, log in when it needs
 * to (or {@code MESH_FORCE_LOGIN} says so), then wait for Running, reminding the operator every
 * {@link #REMINDER} what the node waits for. A login failure ({@code ErrMessage}) stops the start.
 *
 * <p>Readiness follows the bus for as long as the server runs: any state but Running makes
 * {@link #status()} not running, and a bus stream that ends (the daemon stopped) too, while the watch
 * reconnects with a doubling back-off. Nothing here ever ends the process.
 *
 * <p>With {@code mesh.port} 443 the API serves HTTPS with the node's certificate from the daemon,
 * kept current by a {@link CertificateManager}.
 *
 * <p>The API listens where the daemon delivers tailnet connections: on {@code 127.0.0.1:<mesh.port>}
 * with userspace networking, which forwards every inbound connection there and records the peer in
 * its proxy map; on the node's tailnet IPv4 address with a TUN device. Who-is asks the daemon about
 * the connection's remote address on every request: no cache, never a header. A cache could not be
 * kept sound: a revoked grant reaches the daemon as a new packet filter, which tailscaled (1.103)
 * applies on its own, without a line on the IPN bus ({@code LocalBackend.UpdatePacketFilter}), so
 * nothing would tell the server that a cached answer now admits a caller the daemon refuses.
 *
 * <p><b>Thread safety:</b> thread-safe; the bus is handled on one Vert.x context.
 */
public final class TailnetMesh implements Mesh {

  /** The socket of a daemon installed on the host, {@code mesh.socket}'s default in external mode. */
  public static final String DEFAULT_EXTERNAL_SOCKET = "/var/run/tailscale/tailscaled.sock";
  /** How often the log says what the node waits for (a login, an approval). */
  public static final Duration REMINDER = Duration.ofSeconds(5);
  /** How long to wait for the daemon's socket to answer at start. */
  public static final Duration DAEMON_WAIT = Duration.ofSeconds(30);

  private static final Logger LOG = System.getLogger(TailnetMesh.class.getName());
  private static final Duration RECONNECT_FIRST = Duration.ofMillis(250);
  private static final Duration RECONNECT_MAX = Duration.ofSeconds(10);
  private static final String LOOPBACK = "127.0.0.1";
  private static final int HTTPS_PORT = 443;
  /** The IPN bus option that makes the first line carry the current state. */
  private static final int INITIAL_STATE = 2;

  private final Vertx vertx;
  private final SvcConfig.Mesh config;
  private final Path socket;
  private final LocalApiClient client;
  private final NodeLogin login;
  private final TailscaledProcess child;
  private final CertificateManager certificates;
  private final Promise<NodeStatus> running = Promise.promise();
  private volatile MeshStatus status = new MeshStatus(false, "mesh node not initialized");
  private volatile BackendState state;
  private volatile NodeStatus node;
  private volatile BusWatch watch;
  private volatile boolean closed;
  private volatile boolean checkBind = true;
  private Future<NodeStatus> up; // guarded by this
  // Only touched on the bus's context.
  private volatile long reminder = -1;
  private volatile long stateChanges;
  private Duration reconnectDelay = RECONNECT_FIRST;

  /**
   * A mesh over the daemon at {@code mesh.socket} (or {@link #DEFAULT_EXTERNAL_SOCKET}).
   *
   * @param vertx runs the client and the bus watch
   * @param config the {@code mesh.*} keys
   * @param login {@code MESH_AUTHKEY} and {@code MESH_FORCE_LOGIN}
   * @param registry gets the gauge {@code svc_mesh_state}
   * @return the mesh; it brings the node up when the API asks where to listen
   */
  public static TailnetMesh external(Vertx vertx, SvcConfig.Mesh config, NodeLogin login, MeterRegistry registry) {
    Path socket = Path.of(config.socket().isEmpty() ? DEFAULT_EXTERNAL_SOCKET : config.socket());
    if (!config.stateDir().isEmpty()) {
      LOG.log(Level.WARNING, "mesh: mesh.stateDir is ignored in mesh mode external: the node's state belongs to the "
          + "daemon at " + socket + " (a sidecar's TS_STATE_DIR or TS_KUBE_SECRET)");
    }
    return new TailnetMesh(vertx, config, socket, new LocalApiClient(vertx, socket, new ObjectMapper(),
        Clock.systemUTC()), login, null, registry);
  }

  /**
   * A mesh over our own daemon ({@code mesh.mode: managed}), which bringing the node up starts.
   *
   * @param vertx runs the client, the bus watch and the child's restarts
   * @param config the {@code mesh.*} keys
   * @param login {@code MESH_AUTHKEY} and {@code MESH_FORCE_LOGIN}
   * @param child the daemon to start, from {@link TailscaledProcess#of}
   * @param registry gets the gauge {@code svc_mesh_state}
   * @return the mesh; it starts the child and brings the node up when the API asks where to listen
   */
  public static TailnetMesh managed(Vertx vertx, SvcConfig.Mesh config, NodeLogin login, TailscaledProcess child,
      MeterRegistry registry) {
    return new TailnetMesh(vertx, config, child.socket(), new LocalApiClient(vertx, child.socket(),
        new ObjectMapper(), Clock.systemUTC()), login, child, registry);
  }

  TailnetMesh(Vertx vertx, SvcConfig.Mesh config, Path socket, LocalApiClient client, NodeLogin login,
      TailscaledProcess child, MeterRegistry registry) {
    this.vertx = vertx;
    this.config = config;
    this.socket = socket;
    this.client = client;
    this.login = login;
    this.child = child;
    this.certificates = new CertificateManager(vertx, client, Clock.systemUTC());
    // One series per state, 1 for the current one; all 0 while the daemon is unknown or unreachable.
    for (BackendState each : BackendState.values()) {
      Gauge.builder("svc.mesh.state", () -> state == each ? 1 : 0)
          .description("The mesh node's backend state as tailscaled reports it: 1 for the current one")
          .tag("state", each.wireName())
          .register(registry);
    }
  }

  @Override
  public Future<List<HttpServerOptions>> listenOptions(HttpServerOptions base) {
    return up().compose(running -> {
      List<HttpServerOptions> listeners = listenHosts(running, TailnetMesh::onThisMachine).stream()
          .map(host -> new HttpServerOptions(base).setHost(host).setPort(config.port()).setSsl(false)).toList();
      if (config.port() != HTTPS_PORT) {
        return Future.succeededFuture(listeners);
      }
      return vertx.executeBlocking(() -> {
        if (checkBind) {
          listeners.forEach(options -> checkBindable(options.getHost(), options.getPort()));
        }
        return null;
      }).compose(bindable -> certificates.first(running)).map(pem -> {
        listeners.forEach(options -> options.setSsl(true).setKeyCertOptions(pem));
        return listeners;
      });
    });
  }

  /**
   * Fails with a precise help when {@code host:port} can't be bound: 443 is a privileged port, and
   * loopback forwarding needs exactly {@code mesh.port}. Checked before the certificate is fetched.
   *
   * @throws StartException when binding fails
   */
  static void checkBindable(String host, int port) {
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(true);
      probe.bind(new InetSocketAddress(host, port));
    } catch (BindException e) {
      String why = String.valueOf(e.getMessage());
      throw new StartException("the API can't listen on " + host + ":" + port + ": " + why, bindHelp(port, why), e);
    } catch (IOException e) {
      throw new StartException("the API can't listen on " + host + ":" + port + ": " + e.getMessage(),
          "set mesh.port to another port", e);
    }
  }

  /** What to do about a bind of {@code port} that failed with {@code why}: taken, or not allowed. */
  static String bindHelp(int port, String why) {
    return why.contains("in use")
        ? "stop the process that listens there, or set mesh.port to another port (tailnet callers then use it)"
        : "allow binding port " + port + ": set net.ipv4.ip_unprivileged_port_start to " + port
            + " or less (a safe pod sysctl), or grant CAP_NET_BIND_SERVICE, or set mesh.port to a port above 1023";
  }

  /** Leaves out the bind check of port 443, for tests that bind another port with the options for 443. */
  TailnetMesh withoutBindCheck() {
    checkBind = false;
    return this;
  }

  @Override
  public void serving(HttpServer listener) {
    if (config.port() == HTTPS_PORT) {
      certificates.serving(listener);
    }
  }

  /**
   * Refreshes the HTTPS certificate now, as the timer does.
   *
   * @return completes when the refresh ended; a failure keeps the current certificate
   */
  Future<Void> refreshCertificate() {
    return certificates.refresh();
  }

  /**
   * Where tailnet connections arrive: loopback with userspace networking, else each of the node's
   * tailnet addresses, IPv4 first (peers dial either, by the node's DNS name). An address the
   * machine doesn't have (the tailnet gives every node an IPv6 address, which a host with IPv6 off
   * can't assign) is left out with a warning, unless none is there: binding then fails and says so.
   *
   * @param running the running node
   * @param onThisMachine whether an address is one of this machine's interfaces'
   * @return the addresses to listen on
   */
  static List<String> listenHosts(NodeStatus running, Predicate<String> onThisMachine) {
    if (!running.tun()) {
      return List.of(LOOPBACK);
    }
    List<String> all = running.addresses().stream().sorted(Comparator.comparing(a -> a.contains(":"))).toList();
    List<String> here = all.stream().filter(onThisMachine).toList();
    if (here.isEmpty()) {
      return all;
    }
    if (here.size() < all.size()) {
      LOG.log(Level.WARNING, "mesh: the node's addresses " + all.stream().filter(a -> !here.contains(a)).toList()
          + " aren't on this machine's interfaces (IPv6 turned off?): the API listens on " + here + " only");
    }
    return here;
  }

  static boolean onThisMachine(String address) {
    try {
      return NetworkInterface.getByInetAddress(InetAddress.getByName(address)) != null;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public String url(int port) {
    String name = dnsName();
    return port == 443 ? "https://" + name : "http://" + name + ":" + port;
  }

  @Override
  public String dnsName() {
    NodeStatus known = node;
    return known == null ? config.hostname() : known.dnsName();
  }

  @Override
  public Future<Caller> whoIs(SocketAddress peer) {
    return client.whoIs(whoIsAddress(peer), this::explained);
  }

  /** A failed who-is, with what the API's caller or the operator can do about it. */
  private LocalApiException explained(LocalApiException failure) {
    return failure.status() == 404
        ? new LocalApiException(404, "call the API over the tailnet: this connection doesn't come from a tailnet"
            + " peer (" + failure.getMessage() + ")", failure.retryAfter(), failure)
        : new LocalApiException(failure.status(), "check that tailscaled runs and answers at " + socket + ": "
            + failure.getMessage(), Optional.empty(), failure);
  }

  /**
   * The form of {@code peer} the daemon's who-is takes: {@code a.b.c.d:port}, or {@code [v6]:port}
   * without a zone.
   *
   * @param peer a connection's remote address
   * @return the address
   */
  static String whoIsAddress(SocketAddress peer) {
    String host = ip(peer);
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + peer.port();
  }

  /** The IP of {@code peer} without a zone. */
  private static String ip(SocketAddress peer) {
    String host = peer.hostAddress() != null ? peer.hostAddress() : peer.host();
    int zone = host.indexOf('%');
    return zone < 0 ? host : host.substring(0, zone);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Only connections from loopback (where userspace networking delivers tailnet connections) or
   * from the tailnet's address ranges are asked about, so probes from the pod network never depend
   * on the daemon. When the daemon can't say, such a connection is refused.
   */
  @Override
  public Future<Boolean> carriesMeshTraffic(SocketAddress peer) {
    if (!mayBeTailnet(peer)) {
      return Future.succeededFuture(false);
    }
    return client.whoIs(whoIsAddress(peer)).map(true).recover(failure -> Future.succeededFuture(
        !(failure instanceof LocalApiException refused && refused.status() == 404)));
  }

  /** Loopback, the tailnet's IPv4 range 100.64.0.0/10, or its IPv6 prefix fd7a:115c:a1e0::/48. */
  private static boolean mayBeTailnet(SocketAddress peer) {
    try {
      // An IP literal: no name lookup happens.
      InetAddress address = InetAddress.getByName(ip(peer));
      byte[] bytes = address.getAddress();
      if (address.isLoopbackAddress()) {
        return true;
      }
      if (bytes.length == 4) {
        return (bytes[0] & 0xff) == 100 && (bytes[1] & 0xc0) == 64;
      }
      return (bytes[0] & 0xff) == 0xfd && (bytes[1] & 0xff) == 0x7a && (bytes[2] & 0xff) == 0x11
          && (bytes[3] & 0xff) == 0x5c && (bytes[4] & 0xff) == 0xa1 && (bytes[5] & 0xff) == 0xe0;
    } catch (java.net.UnknownHostException e) {
      return true;
    }
  }

  @Override
  public MeshStatus status() {
    return status;
  }

  /**
   * Brings the node up, once: later calls get the same future.
   *
   * @return completes with the node's status once it runs; fails with a {@link StartException} when
   *     the daemon can't be reached or the login fails
   */
  public synchronized Future<NodeStatus> up() {
    if (up == null) {
      Future<NodeStatus> answered = child == null ? client.awaitStatus(DAEMON_WAIT) : startChild();
      up = answered
          .recover(failure -> Future.failedFuture(failure instanceof StartException ? failure : new StartException(
              "tailscaled doesn't answer at " + socket + ": " + failure.getMessage(),
              child == null ? "start the daemon, or set mesh.socket to its local API socket"
                  : "check tailscaled's output above", failure)))
          .compose(first -> {
            LOG.log(Level.INFO, "mesh: tailscaled " + first.version() + " at " + socket + " is in "
                + first.state().wireName() + " state");
            return openWatch().map(first);
          })
          .compose(this::startIfNeeded)
          .compose(started -> running.future());
    }
    return up;
  }

  /** Starts our daemon and waits until it answers; fails when it exits first. */
  private Future<NodeStatus> startChild() {
    return child.start(vertx, client.status().map(true).otherwise(false)).compose(started -> {
      Promise<NodeStatus> answered = Promise.promise();
      client.awaitStatus(DAEMON_WAIT).onComplete(answered::tryComplete, answered::tryFail);
      child.exit().onSuccess(code -> answered.tryFail(new StartException("tailscaled exited with code " + code
          + " at start: " + String.join(" | ", child.lastLines()), "check its output; mesh.tailscaled, "
          + "mesh.stateDir and mesh.socket must suit it", null)));
      return answered.future();
    });
  }

  private Future<Void> openWatch() {
    return client.watchBus(INITIAL_STATE, this::onLine).map(opened -> {
      watch = opened;
      reconnectDelay = RECONNECT_FIRST;
      opened.ended().onFailure(this::onBusEnded);
      return null;
    });
  }

  private void onBusEnded(Throwable cause) {
    if (closed) {
      return;
    }
    cancelReminder();
    stateChanges++;
    state = null;
    status = new MeshStatus(false, "mesh node not reachable: tailscaled's IPN bus ended");
    LOG.log(Level.WARNING, "mesh: " + cause.getMessage() + "; reconnecting in " + reconnectDelay.toMillis() + " ms");
    Duration delay = reconnectDelay;
    reconnectDelay = delay.multipliedBy(2).compareTo(RECONNECT_MAX) > 0 ? RECONNECT_MAX : delay.multipliedBy(2);
    vertx.setTimer(delay.toMillis(), t -> {
      if (!closed) {
        openWatch().onFailure(this::onBusEnded);
      }
    });
  }

  /** notes §3.3 steps 4 and 5, for a daemon this user may or may not drive. */
  private Future<Void> startIfNeeded(NodeStatus first) {
    Future<Void> driven;
    if (child == null && first.state() == BackendState.RUNNING) {
      driven = login.forceLogin() ? client.loginInteractive() : Future.succeededFuture();
      if (!login.forceLogin()) {
        keyNotUsed();
      }
    } else {
      // Our own daemon gets the complete preferences (start replaces them all); another's keeps its
      // own, with only WantRunning changed.
      Future<ObjectNode> prefs = child != null ? Future.succeededFuture(managedPrefs())
          : client.prefs().map(current -> current.put("WantRunning", true));
      driven = prefs
          .compose(complete -> client.start(complete, login.authKey()))
          .compose(started -> client.status())
          .compose(after -> {
            if (after.state() == BackendState.NEEDS_LOGIN || login.forceLogin()) {
              return client.loginInteractive();
            }
            keyNotUsed();
            return Future.succeededFuture();
          });
    }
    return driven.recover(failure -> {
      if (failure instanceof LocalApiException refused && refused.status() == 403) {
        LOG.log(Level.WARNING, "mesh: tailscaled at " + socket + " lets this user only read (" + refused.getMessage()
            + "): the daemon's own login has to bring the node up"
            + (login.authKey().isEmpty() ? "" : "; MESH_AUTHKEY is ignored, give the daemon the key (TS_AUTHKEY)")
            + (login.forceLogin() ? "; MESH_FORCE_LOGIN can't be honoured" : ""));
        return Future.succeededFuture();
      }
      return Future.failedFuture(new StartException("tailscaled refused to bring the node up: " + failure.getMessage(),
          "check the daemon's log and that this user may drive it", failure));
    });
  }

  /** tsnet's preferences (notes §1.7): the daemon's defaults with our host name and control server. */
  private ObjectNode managedPrefs() {
    ObjectNode prefs = JsonNodeFactory.instance.objectNode();
    prefs.put("ControlURL", config.controlUrl());
    prefs.put("RouteAll", false);
    prefs.put("CorpDNS", true);
    prefs.put("WantRunning", true);
    prefs.put("Hostname", config.hostname());
    prefs.put("NetfilterMode", 2);
    prefs.put("NoStatefulFiltering", true);
    prefs.putObject("AutoUpdate").put("Check", true).putNull("Apply");
    prefs.putNull("AdvertiseTags");
    prefs.put("RunSSH", false);
    prefs.put("RunWebClient", false);
    prefs.put("ShieldsUp", false);
    return prefs;
  }

  private void keyNotUsed() {
    if (!login.authKey().isEmpty()) {
      LOG.log(Level.INFO, "mesh: auth key not used: node state exists; set MESH_FORCE_LOGIN=1 to register again");
    }
  }

  private void onLine(BusNotification line) {
    line.errMessage().ifPresent(this::onError);
    line.browseToUrl().ifPresent(url -> LOG.log(Level.WARNING, loginReminder(url)));
    line.state().ifPresent(this::onState);
  }

  private void onError(String message) {
    if (running.future().isComplete()) {
      LOG.log(Level.WARNING, "mesh: tailscaled reports: " + message);
      return;
    }
    String help;
    if (login.authKey().startsWith("tskey-client-")) {
      help = "keys starting with tskey-client- are OAuth secrets, not auth keys: create an auth key and set "
          + "MESH_AUTHKEY to it";
    } else if (!login.authKey().isEmpty()) {
      help = "auth key rejected: create a new reusable or pre-authorized key and set MESH_AUTHKEY to it";
    } else {
      help = "check the daemon's log and the tailnet's admin console";
    }
    running.tryFail(new StartException("mesh login failed: " + message, help, null));
  }

  private void onState(BackendState state) {
    cancelReminder();
    this.state = state;
    long change = ++stateChanges;
    if (state != BackendState.RUNNING) {
      status = new MeshStatus(false, "mesh node is in " + state.wireName() + " state");
    }
    switch (state) {
      case NEEDS_LOGIN -> reminder = vertx.setPeriodic(REMINDER.toMillis(), t -> client.status().onSuccess(now -> {
        if (now.state() == BackendState.NEEDS_LOGIN) {
          LOG.log(Level.WARNING, now.authUrl().isEmpty()
              ? "mesh: the node needs a login: restart with MESH_AUTHKEY, or MESH_FORCE_LOGIN=1 for a login URL"
              : loginReminder(now.authUrl()));
        }
      }));
      case NEEDS_MACHINE_AUTH -> reminder = vertx.setPeriodic(REMINDER.toMillis(), t -> LOG.log(Level.WARNING,
          "mesh: approve the device " + config.hostname() + " in the tailnet admin console"));
      case RUNNING -> client.status().onComplete(read -> {
        if (change != stateChanges) {
          return; // the state moved on meanwhile
        }
        if (read.failed()) {
          status = new MeshStatus(false, "mesh node is in Running state but its status is unreadable");
          LOG.log(Level.WARNING, "mesh: " + read.cause().getMessage());
          return;
        }
        onRunning(read.result());
      });
      default -> {
        // Starting, Stopped and the others wait for the next state.
      }
    }
  }

  private static String loginReminder(String url) {
    return "mesh: open " + url + " to add this server to the tailnet, or restart with MESH_AUTHKEY";
  }

  private void onRunning(NodeStatus now) {
    if (now.addresses().isEmpty()) {
      status = new MeshStatus(false, "mesh node is in Running state without tailnet addresses");
      return;
    }
    String label = now.dnsName().contains(".") ? now.dnsName().substring(0, now.dnsName().indexOf('.')) : now.dnsName();
    if (!label.equals(config.hostname())) {
      LOG.log(Level.WARNING, "mesh: the tailnet named this node " + now.dnsName() + ", not " + config.hostname()
          + " (mesh.hostname): URLs built from mesh.hostname don't reach it. Remove the stale " + config.hostname()
          + " device in the admin console and restart, or set mesh.hostname to " + label);
    }
    if (!config.tailnet().isEmpty() && !now.dnsName().endsWith("." + config.tailnet().replaceFirst("^\\.", ""))) {
      LOG.log(Level.WARNING, "mesh: the node " + now.dnsName() + " is not in the tailnet " + config.tailnet()
          + " (mesh.tailnet)");
    }
    node = now;
    status = new MeshStatus(true, "mesh node is in Running state");
    if (child != null) {
      child.healthy();
    }
    if (child != null && !running.future().isComplete()) {
      // Serve settings persist in the node state; ours are none (tsnet clears them the same way).
      client.setServeConfig(JsonNodeFactory.instance.objectNode(), "").onFailure(failure ->
          LOG.log(Level.WARNING, "mesh: stale serve settings not cleared: " + failure.getMessage()));
    }
    if (running.tryComplete(now)) {
      LOG.log(Level.INFO, "mesh: node " + now.dnsName() + " is Running at " + String.join(", ", now.addresses()));
    }
  }

  private void cancelReminder() {
    if (reminder >= 0) {
      vertx.cancelTimer(reminder);
      reminder = -1;
    }
  }

  @Override
  public Future<Void> close() {
    closed = true;
    certificates.close();
    running.tryFail(new StartException("the server stopped before the mesh node ran", "nothing to do", null));
    BusWatch open = watch;
    vertx.runOnContext(v -> cancelReminder());
    return (open == null ? Future.<Void>succeededFuture() : open.close()).eventually(client::close)
        .eventually(() -> child == null ? Future.succeededFuture() : child.stop());
  }
}
