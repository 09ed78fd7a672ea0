package dev.svc.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ApiErrorTest {

  private static Problem decode(int status, String body) {
    return ApiError.decode(status, body.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void an_error_body_gives_message_advice_inner_first_and_causes_outermost_first() {
    Problem problem = decode(500, """
        {"message":"Error signing in user","advice":["outer advice"],
         "cause":{"message":"middle","advice":["middle advice"],"cause":{"message":"inner","advice":["inner advice"]}}}
        """);

    assertThat(problem).isEqualTo(new Problem("Error signing in user",
        List.of("inner advice", "middle advice", "outer advice"), List.of("middle", "inner")));
  }

  @Test
  void an_error_or_internal_error_field_is_the_first_fallback() {
    assertThat(decode(500, "{\"error\":\"boom\"}")).isEqualTo(Problem.of("boom"));
    assertThat(decode(500, "{\"internal_error\":\"crash\"}")).isEqualTo(Problem.of("crash"));
  }

  @Test
  void any_other_body_is_shown_as_it_is() {
    assertThat(decode(502, "Bad Gateway\n")).isEqualTo(Problem.of("Bad Gateway"));
    assertThat(decode(500, "[1,2]")).isEqualTo(Problem.of("[1,2]"));
  }

  @Test
  void an_empty_body_names_the_status() {
    assertThat(decode(503, "").message()).isEqualTo("the server answered 503 without a message");
  }

  @Test
  void a_deep_cause_chain_is_cut_instead_of_overflowing() {
    String body = "{\"message\":\"m\",\"cause\":".repeat(100) + "{\"message\":\"last\"}" + "}".repeat(100);

    Problem problem = decode(500, body);

    assertThat(problem.causes()).hasSize(32);
  }
}
