package dev.svc.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.http.HttpMethod;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RouteTableTest {

  @ParameterizedTest
  @CsvSource({
      "/api/v1/policies, /api/v1/policies, true",
      "/api/v1/policies, /api/v1/policies/, true",
      "/api/v1/policies, /api/v1/policy, false",
      "/api/v1/policies/:name, /api/v1/policies/access.main, true",
      "/api/v1/policies/:name, /api/v1/policies/access.main/, true",
      "/api/v1/policies/:name, /api/v1/policies, false",
      "/api/v1/policies/:name, /api/v1/policies//, false",
      "/api/v1/policies/:name/eval, /api/v1/policies/x/eval, true",
      "/api/v1/policies/:name/eval, /api/v1/policies/x/y/eval, false",
      "/api/v1/policies/:name/eval, /api/v1/policies/x/test, false",
      "/api/v1/policies/:name/eval, /api/v1/policies/x/evaluate, false",
      "/healthz, /, false",
      "/healthz, /healthz/x, false",
  })
  void a_path_fits_a_route_with_one_segment_for_each_parameter(String template, String path, boolean fits) {
    assertThat(RouteTable.fits(template, path)).isEqualTo(fits);
  }

  private static final RouteTable ROUTES = new RouteTable(List.of(
      route(HttpMethod.POST, "/api/v1/policies/:name/eval"),
      route(HttpMethod.GET, "/api/v1/policies"),
      route(HttpMethod.PUT, "/api/v1/policies/:name"),
      route(HttpMethod.GET, "/api/v1/policies/:name"),
      route(HttpMethod.DELETE, "/api/v1/policies/:name")));

  private static ApiRoute route(HttpMethod method, String path) {
    return new ApiRoute(method, path, ctx -> ctx.response().end());
  }

  @Test
  void a_path_finds_its_route_and_the_methods_of_it() {
    assertThat(ROUTES.routeOf("/api/v1/policies/access.main/eval")).contains("/api/v1/policies/:name/eval");
    assertThat(ROUTES.methodsAt("/api/v1/policies/access.main")).isEqualTo("DELETE, GET, PUT");
    assertThat(ROUTES.routeOf("/api/v1/nothing")).isEmpty();
    assertThat(ROUTES.methodsAt("/api/v1/nothing")).isEmpty();
  }

  @Test
  void the_paths_read_with_their_parameters_in_braces() {
    assertThat(ROUTES.readablePaths())
        .containsExactly("/api/v1/policies", "/api/v1/policies/{name}", "/api/v1/policies/{name}/eval");
  }
}
