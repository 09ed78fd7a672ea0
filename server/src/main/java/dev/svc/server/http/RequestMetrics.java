package dev.svc.server.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP server metrics of the API (access-server spec §9), one count and one time per request:
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>Name</th><th>Type</th><th>Tags</th><th>What</th></tr>
 *   <tr><td>{@code svc.requests}</td><td>counter</td><td>{@code method}, {@code url}, {@code code}</td>
 *       <td>requests answered, or whose connection closed first ({@code code} {@code closed})</td></tr>
 *   <tr><td>{@code svc.request.duration}</td><td>timer</td><td>the same</td>
 *       <td>from the request's headers to the end of its answer</td></tr>
 * </table>
 *
 * <p>{@code url} is the path of the route the request's path fits, with its parameters as
 * {@code :name} ({@code /api/v1/policies/:name/eval}), or {@code unmatched}: as few values as there
 * are routes. The meters of a route, method and status are looked up in a map, built once. They
 * stand in for Vert.x's HTTP server metrics, which build the ids of five meters for every request and
 * took about a tenth of the event loop's time under load.
 *
 * <p>Register it as the router's first handler, on every path.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class RequestMetrics implements Handler<RoutingContext> {

  private static final String UNMATCHED = "unmatched";
  private static final int CLOSED = 0;

  /** What one request's meters are told apart by. */
  private record Key(String url, HttpMethod method, int code) {}

  /** The meters of one {@link Key}. */
  private record Meters(Counter requests, Timer duration) {}

  private final MeterRegistry registry;
  private final RouteTable routes;
  private final Map<Key, Meters> meters = new ConcurrentHashMap<>();
  private volatile Recent recent;

  /** The key of a recent request and its meters. */
  private record Recent(Key key, Meters meters) {}

  /**
   * The metrics of the routes {@code routes} lists.
   *
   * @param registry where the meters go
   * @param routes the routes' paths, which name requests
   */
  public RequestMetrics(MeterRegistry registry, RouteTable routes) {
    this.registry = registry;
    this.routes = routes;
  }

  @Override
  public void handle(RoutingContext ctx) {
    long start = System.nanoTime();
    ctx.addEndHandler(done -> record(ctx, System.nanoTime() - start));
    ctx.next();
  }

  private void record(RoutingContext ctx, long nanos) {
    HttpServerResponse response = ctx.response();
    String url = routes.routeOf(ctx.normalizedPath()).orElse(UNMATCHED);
    HttpMethod method = ctx.request().method();
    int code = response.ended() ? response.getStatusCode() : CLOSED;
    Meters found = meters(url, method, code);
    found.requests().increment();
    found.duration().record(nanos, TimeUnit.NANOSECONDS);
  }

  // Most requests are of the key of the one before (the same route, method and status): that key's
  // meters are kept aside, found without a key to build and hash. The route paths are the table's
  // own strings, so comparing them is comparing references.
  private Meters meters(String url, HttpMethod method, int code) {
    Recent recent = this.recent;
    if (recent != null && recent.key().url() == url && recent.key().method() == method && recent.key().code() == code) {
      return recent.meters();
    }
    Key key = new Key(url, method, code);
    Meters known = meters.get(key);
    Meters found = known != null ? known : meters.computeIfAbsent(key, this::register);
    this.recent = new Recent(key, found);
    return found;
  }

  private Meters register(Key key) {
    String code = key.code() == CLOSED ? "closed" : Integer.toString(key.code());
    return new Meters(
        Counter.builder("svc.requests")
            .description("requests to the API by route, method and status")
            .tag("url", key.url()).tag("method", key.method().name()).tag("code", code)
            .register(registry),
        Timer.builder("svc.request.duration")
            .description("time from a request's headers to the end of its answer")
            .tag("url", key.url()).tag("method", key.method().name()).tag("code", code)
            .register(registry));
  }
}
