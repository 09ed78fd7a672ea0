package dev.svc.server.mesh;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.server.config.SvcConfig;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.SocketAddress;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;

/**
 * {@code mesh.mode: dev}: no tailnet. The API listens on the loopback interface only, with plain HTTP
 * whatever {@code mesh.port} is, and every caller is {@code mesh.dev.login} holding the grants
 * {@code mesh.dev.grants} under {@code mesh.capName}. For trying svc on one machine; never for
 * production, which is why it says so loudly when it starts.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class DevMesh implements Mesh {

  private static final Logger LOG = System.getLogger(DevMesh.class.getName());
  private static final String LOOPBACK = "127.0.0.1";

  private final int port;
  private final String capName;
  private final Caller caller;

  /**
   * A dev mesh for the {@code mesh.*} keys of {@code config}.
   *
   * @param config the mesh keys: port, capability name and the dev caller
   */
  public DevMesh(SvcConfig.Mesh config) {
    this.port = config.port();
    this.capName = config.capName();
    List<JsonNode> grants = config.dev().grants().stream().map(rule -> (JsonNode) rule.toJson()).toList();
    this.caller = new Caller(config.dev().login(), List.of(), Map.of(capName, grants));
  }

  @Override
  public Future<List<HttpServerOptions>> listenOptions(HttpServerOptions base) {
    LOG.log(Level.WARNING, "mesh mode dev: no tailnet; every caller on this machine is {0} with the grants {1}"
        + " of {2}. Never use mesh mode dev in production", caller.loginName(), caller.grants(capName), capName);
    return Future.succeededFuture(List.of(new HttpServerOptions(base).setHost(LOOPBACK).setPort(port).setSsl(false)));
  }

  @Override
  public String url(int boundPort) {
    return "http://" + LOOPBACK + ":" + boundPort;
  }

  @Override
  public String dnsName() {
    return LOOPBACK;
  }

  @Override
  public Future<Caller> whoIs(SocketAddress peer) {
    return Future.succeededFuture(caller);
  }

  @Override
  public MeshStatus status() {
    return new MeshStatus(true, "mesh node is in Running state (mesh mode dev: no tailnet)");
  }

  @Override
  public Future<Void> close() {
    return Future.succeededFuture();
  }
}
