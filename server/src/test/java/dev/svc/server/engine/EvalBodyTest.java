package dev.svc.server.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.svc.server.http.ApiJson;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class EvalBodyTest {

  private static Optional<EvalBody> usual(String body) {
    return EvalBody.readUsual(body.getBytes(StandardCharsets.UTF_8));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "{\"input\": {\"user\": {\"name\": \"ann\"}}} | {\"user\": {\"name\": \"ann\"}} | ",
      "{ \"timeout_ms\" : 25 , \"input\":{\"a\":[1,{\"b\":\"é ü 😀\"}],\"c\":null} } | {\"a\":[1,{\"b\":\"é ü 😀\"}],\"c\":null} | 25",
      "{\"input\": {}, \"timeout_ms\": -3} | {} | -3",
      "{\"trace\": false, \"input\": {}} | {} | ",
  })
  void the_usual_body_keeps_the_input_as_the_request_wrote_it(String body, String input, Long timeoutMs) {
    EvalBody read = usual(body).orElseThrow();

    assertThat(read.input()).isEqualTo(new RawValue(input));
    assertThat(read.timeoutMs()).isEqualTo(Optional.ofNullable(timeoutMs));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "{\"input\": {}} | ",
      "{\"input\": {}, \"trace\": false} | false",
      "{\"input\": {}, \"trace\": true} | true",
  })
  void the_usual_body_may_say_whether_the_record_has_its_trace(String body, Boolean trace) {
    assertThat(usual(body).orElseThrow().trace()).isEqualTo(Optional.ofNullable(trace));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"input\": {\"user\": \"ann\", \"n\": [1.5, true]}}",
      "{\"input\": {\"s\": \"quote \\\" and \\u00e9\"}}",
  })
  void the_engine_is_given_the_same_json_as_the_tree_the_body_holds(String body) throws JsonProcessingException {
    String written = ApiJson.MAPPER.writeValueAsString(Map.of("input", usual(body).orElseThrow().input()));

    JsonNode tree = ApiJson.MAPPER.readTree(body);
    assertThat(ApiJson.MAPPER.readTree(written)).isEqualTo(tree);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{}",
      "{\"timeout_ms\": 5}",
      "{\"input\": null}",
      "{\"input\": 5}",
      "{\"input\": [1]}",
      "{\"input\": {}, \"timeout_ms\": 1.5}",
      "{\"input\": {}, \"timeout_ms\": \"5\"}",
      "{\"input\": {}, \"timeout_ms\": 99999999999999999999}",
      "{\"input\": {}, \"timeoutMs\": 5}",
      "{\"input\": {}, \"trace\": \"false\"}",
      "{\"input\": {}, \"trace\": null}",
      "{\"input\": {}, \"input\": {}}",
      "{\"input\": {\"a\": 1, \"a\": 2}}",
      "{\"input\": {}} {}",
      "{\"input\": {\"a\": }}",
      "{\"input\": {}",
      "[]",
      "input",
  })
  void any_other_body_is_left_to_the_strict_reader_whose_refusal_says_what_is_wrong(String body) {
    assertThat(usual(body)).isEmpty();
  }

  @Test
  void an_input_that_isnt_utf_8_is_left_to_the_strict_reader() {
    byte[] body = "{\"input\": {\"name\": \"a?b\"}}".getBytes(StandardCharsets.UTF_8);
    body[body.length - 5] = (byte) 0xC3;

    assertThat(EvalBody.readUsual(body)).isEmpty();
  }
}
