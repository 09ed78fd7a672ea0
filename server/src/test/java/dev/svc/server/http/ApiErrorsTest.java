package dev.svc.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ApiErrorsTest {

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
  })
  void a_path_fits_a_route_with_one_segment_for_each_parameter(String template, String path, boolean fits) {
    assertThat(ApiErrors.fits(template, path)).isEqualTo(fits);
  }
}
