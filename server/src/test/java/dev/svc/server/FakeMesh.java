package dev.svc.server;

import dev.svc.server.mesh.Caller;
import dev.svc.server.mesh.Mesh;
import dev.svc.server.mesh.MeshStatus;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.SocketAddress;

/** A mesh whose who-is answer and status the test sets. */
final class FakeMesh implements Mesh {

  volatile Future<Caller> whoIs;
  volatile MeshStatus status = new MeshStatus(true, "mesh node is in Running state");

  /** Where the API listens; 0, a free port of the system's choice. */
  volatile int port;

  FakeMesh(Caller caller) {
    this.whoIs = Future.succeededFuture(caller);
  }

  @Override
  public Future<HttpServerOptions> listenOptions(HttpServerOptions base) {
    return Future.succeededFuture(new HttpServerOptions(base).setHost("127.0.0.1").setPort(port));
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
