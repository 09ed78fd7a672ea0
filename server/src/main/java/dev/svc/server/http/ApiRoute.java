package dev.svc.server.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import java.util.Objects;

/**
 * One route of the API, declared once: what {@link RouteTable} mounts on the router and derives the
 * answers to a wrong path or method and the metrics' route names from.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe if the handler is.
 *
 * @param method the method it answers
 * @param path its path, a parameter written {@code :name} for one non-empty segment, such as
 *     {@code /api/v1/policies/:name/eval}
 * @param handler what answers it, once the guards let the request through
 */
public record ApiRoute(HttpMethod method, String path, Handler<RoutingContext> handler) {

  /**
   * Checks that every part is given.
   *
   * @param method the method
   * @param path the path
   * @param handler the handler
   */
  public ApiRoute {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(handler, "handler");
  }
}
