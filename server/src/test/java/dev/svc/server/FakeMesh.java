package dev.svc.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.server.mesh.Caller;
import dev.svc.server.mesh.Mesh;
import dev.svc.server.mesh.MeshStatus;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.SocketAddress;
import java.util.List;
import java.util.Map;

/** A mesh whose who-is answer and status the test sets. */
final class FakeMesh implements Mesh {

  /** The capability name the test configuration reads grants from. */
  static final String CAP = "svc.dev/cap/svc";

  volatile Future<Caller> whoIs;
  volatile MeshStatus status = new MeshStatus(true, "mesh node is in Running state");

  /** Where the API listens; 0, a free port of the system's choice. */
  volatile int port;

  /** The addresses the API listens on, each on {@link #port}. */
  volatile List<String> hosts = List.of("127.0.0.1");

  FakeMesh(Caller caller) {
    this.whoIs = Future.succeededFuture(caller);
  }

  /**
   * A caller with one grant under {@link #CAP}: the ClusterRole {@code view} for an hour.
   *
   * @param loginName the caller's login name, such as {@code dana@corp.example}
   * @return the caller
   */
  static Caller viewer(String loginName) {
    JsonNode rule = JsonNodeFactory.instance.objectNode().put("role", "view").put("period", "1h");
    return new Caller(loginName, List.of(), Map.of(CAP, List.of(rule)));
  }

  @Override
  public Future<List<HttpServerOptions>> listenOptions(HttpServerOptions base) {
    return Future.succeededFuture(hosts.stream().map(host -> new HttpServerOptions(base).setHost(host).setPort(port))
        .toList());
  }

  @Override
  public String url(int port) {
    return "http://" + dnsName() + ":" + port;
  }

  @Override
  public String dnsName() {
    return "127.0.0.1";
  }

  @Override
  public Future<Caller> whoIs(SocketAddress peer) {
    return whoIs;
  }

  @Override
  public MeshStatus status() {
    return status;
  }

  @Override
  public Future<Void> close() {
    return Future.succeededFuture();
  }
}
