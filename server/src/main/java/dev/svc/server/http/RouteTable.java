package dev.svc.server.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A listener's routes, each declared once ({@link ApiRoute}): mounted on its router, and read for
 * what the router doesn't say: the methods of a path that was asked with another one (405's
 * {@code Allow}), the paths there are (404's help), and which route's path a request's fits (metrics
 * name requests by it).
 *
 * <p>Paths are written as routes are: a parameter as {@code :name}, standing for one non-empty
 * segment ({@code /api/v1/policies/:name/eval}), and a final {@code /*} for everything below a path
 * ({@code /swagger/*}).
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class RouteTable {

  private final List<ApiRoute> routes;
  // Each path, in the order of its first route, to its methods as an Allow header writes them.
  private final Map<String, String> methods;

  /**
   * The table of {@code routes}.
   *
   * @param routes the routes, in the order the router tries them: put the busiest first, since a
   *     parameterized path is tried by a regular expression
   */
  public RouteTable(List<ApiRoute> routes) {
    this.routes = List.copyOf(routes);
    this.methods = routes.stream().collect(Collectors.groupingBy(ApiRoute::path, LinkedHashMap::new,
        Collectors.mapping(route -> route.method().name(), Collectors.collectingAndThen(
            Collectors.toCollection(TreeSet::new), names -> String.join(", ", names)))));
  }

  /**
   * Adds every route to {@code router}, in order, each behind {@code guards}. Each route carries its
   * guards itself, rather than sharing a route under {@code /api/}, so its metrics name the route
   * alone.
   *
   * @param router the listener's router
   * @param guards the handlers every request passes first, in order, such as admission and the body
   */
  public void mount(Router router, List<Handler<RoutingContext>> guards) {
    for (ApiRoute declared : routes) {
      Route route = router.route(declared.method(), declared.path());
      guards.forEach(route::handler);
      route.handler(declared.handler());
    }
  }

  /**
   * The route path {@code path} fits.
   *
   * @param path a request's normalized path
   * @return the route's path, such as {@code /api/v1/policies/:name}; empty when none fits
   */
  public Optional<String> routeOf(String path) {
    for (String route : methods.keySet()) {
      if (fits(route, path)) {
        return Optional.of(route);
      }
    }
    return Optional.empty();
  }

  /**
   * The methods of the route path {@code path} fits.
   *
   * @param path a request's normalized path
   * @return the methods as an {@code Allow} header writes them; empty text when no route fits
   */
  public String methodsAt(String path) {
    return routeOf(path).map(methods::get).orElse("");
  }

  /**
   * The route paths as people write them, a parameter as {@code {name}}, sorted.
   *
   * @return such as {@code /api/v1/policies/{name}/eval}
   */
  public List<String> readablePaths() {
    return methods.keySet().stream().map(route -> route.replaceAll(":([A-Za-z]+)", "{$1}")).sorted().toList();
  }

  /**
   * Whether {@code path} fits the route path {@code route}, segment by segment, as the router matches
   * them; a final slash doesn't count. Compares in place: it runs for every request.
   *
   * @param route a route's path, such as {@code /api/v1/policies/:name}
   * @param path a request's normalized path
   * @return true if the router would match the path to the route
   */
  static boolean fits(String route, String path) {
    if (route.endsWith("/*")) {
      int slash = route.length() - 2;
      return path.startsWith(route.substring(0, slash + 1)) || path.equals(route.substring(0, slash));
    }
    int end = path.length() > 1 && path.endsWith("/") ? path.length() - 1 : path.length();
    int r = 0;
    int p = 0;
    while (r < route.length() && p < end) {
      if (route.charAt(r) == ':' && r > 0 && route.charAt(r - 1) == '/') {
        int segment = p;
        while (p < end && path.charAt(p) != '/') {
          p++;
        }
        if (p == segment) {
          return false;
        }
        while (r < route.length() && route.charAt(r) != '/') {
          r++;
        }
      } else if (route.charAt(r++) != path.charAt(p++)) {
        return false;
      }
    }
    return r == route.length() && p == end;
  }
}
