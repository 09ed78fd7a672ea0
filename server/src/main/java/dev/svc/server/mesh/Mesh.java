package dev.svc.server.mesh;

import io.vertx.core.Future;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.SocketAddress;
import java.util.List;

/**
 * The server's view of the overlay network (the mesh): where API callers reach it, and who each of
 * them is. One implementation per {@code mesh.mode}; tests bring their own.
 *
 * <p>The HTTP layer asks {@link #listenOptions} where to bind the API's listeners, then {@link #whoIs}
 * for every request: identity comes from the mesh connection, never from a header.
 *
 * <p><b>Thread safety:</b> implementations are thread-safe; {@link #status()} never blocks, so
 * readiness probes can call it from an event loop.
 */
public interface Mesh {

  /**
   * Brings the node up if needed, then completes with the options of the API's listeners, one per
   * address where this mode receives mesh traffic (a node with a TUN device has an IPv4 and an IPv6
   * one), all on one port and, for HTTPS, with the certificate.
   *
   * @param base the listeners' other options, such as their timeouts; not modified
   * @return the options to create the API's listeners with, never empty
   */
  Future<List<HttpServerOptions>> listenOptions(HttpServerOptions base);

  /**
   * Tells the mesh the API listener it asked for is bound, so it can keep the listener's certificate
   * current ({@link HttpServer#updateSSLOptions}).
   *
   * @param listener the bound API listener
   */
  default void serving(HttpServer listener) {
    // Plain HTTP listeners need nothing.
  }

  /**
   * The base URL callers reach the API at, to log: {@code https://«dns name»} for port 443, else
   * {@code http://«dns name»:«port»}.
   *
   * @param port the port the API listener is bound to
   * @return the URL
   */
  String url(int port);

  /**
   * The node's DNS name on the mesh, without a trailing dot, such as {@code svc.corp-example.ts.net};
   * the configured hostname while the node's own name isn't known.
   *
   * @return the name callers reach the API by
   */
  String dnsName();

  /**
   * Who is calling from {@code peer}: the mesh's who-is lookup of the connection's remote address.
   *
   * @param peer the remote address of the caller's connection
   * @return the caller; a failed future when the mesh can't say (the request is then refused, with
   *     the failure's message as the help: say what the caller or operator can do)
   */
  Future<Caller> whoIs(SocketAddress peer);

  /**
   * Whether a connection from {@code peer} to another of the server's listeners (the health port) came
   * in from the mesh. Those listeners are for the pod network only, but a daemon with userspace
   * networking forwards every port of the node to loopback, and a TUN device puts the tailnet on the
   * host's interfaces.
   *
   * @param peer the remote address of a connection
   * @return true when the connection may be a tailnet peer's: such a connection is refused
   */
  default Future<Boolean> carriesMeshTraffic(SocketAddress peer) {
    return Future.succeededFuture(false);
  }

  /**
   * Whether the node can serve callers now, for readiness.
   *
   * @return the latest known status; never blocks
   */
  MeshStatus status();

  /**
   * Leaves the mesh: what the mode started for it stops. The API listener is closed before.
   *
   * @return completes when left
   */
  Future<Void> close();
}
