package dev.svc.server.http;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The paths a listener's routes take and the methods of each, for what the router doesn't say: the
 * methods of a path that was asked with another one (405's {@code Allow}), the paths there are
 * (404's help), and which route's path a request's fits (metrics name requests by it).
 *
 * <p>Paths are written as routes are: a parameter as {@code :name}, standing for one non-empty
 * segment ({@code /api/v1/policies/:name/eval}).
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class RouteTable {

  private final Map<String, String> methods;

  /**
   * The table of {@code methods}.
   *
   * @param methods route path to the methods its routes take, as an {@code Allow} header writes them
   *     ({@code DELETE, GET, PUT}); the first path that fits a request is its route's
   */
  public RouteTable(Map<String, String> methods) {
    this.methods = new LinkedHashMap<>(methods);
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
