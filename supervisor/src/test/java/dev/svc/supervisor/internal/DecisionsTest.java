package dev.svc.supervisor.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.engine.EvalFailure;
import dev.svc.engine.EvalOptions;
import dev.svc.engine.EvalResult;
import dev.svc.supervisor.Fixtures;
import dev.svc.supervisor.Pool;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DecisionsTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      // one decision: its name, whatever the payload before it holds
      "{\"payload\":{\"decision\":\"x\",\"error\":{\"kind\":\"y\"}},\"policy\":\"p\",\"decision\":\"allow\","
          + "\"reason\":\"r\",\"outcome\":[],\"trace\":[]} | allow",
      // a kind that collects all, or nothing but the outcome list names decisions
      "{\"policy\":\"p\",\"outcome\":[{\"decision\":\"allow\",\"reason\":\"r\"}],\"trace\":[],\"collect\":true} | none",
      // a failed evaluation: its error's kind, even with the conflict's fallback decision after it
      "{\"error\":{\"kind\":\"conflict\",\"message\":\"m\",\"help\":\"h\"},\"policy\":\"p\",\"decision\":\"deny\","
          + "\"reason\":\"conflict\",\"outcome\":[],\"trace\":[]} | error:conflict",
      "{\"error\":{\"message\":\"m\",\"kind\":\"runtime\"},\"policy\":\"p\",\"outcome\":[],\"trace\":[]} | error:runtime",
      // the error's own kind, past the kinds of what it holds
      "{\"error\":{\"asserts\":[{\"reason\":\"a\",\"kind\":\"x\"}],\"kind\":\"assertion\"},\"policy\":\"p\"} | error:assertion",
      // white space anywhere, and numbers, booleans, nulls and lists in the payload
      " { \"payload\" : { \"n\" : -1.5e3 , \"b\" : [ true , null , [ ] , { } ] } ,\t\"decision\" : \"deny\" } | deny",
      // a member named like `decision` inside a payload string or list is no decision
      "{\"payload\":{\"s\":\"\\\",\\\"decision\\\":\\\"x\\\"}\",\"l\":[\"decision\"]},\"policy\":\"p\",\"outcome\":[]} | none",
      // what the engine never writes
      "[] | none",
      "{\"decision\": | none",
      "{\"payload\":{\"a\":\"unterminated | none",
      "{\"decisions\":\"allow\",\"outcome\":[]} | none",
  })
  void a_record_is_its_decision_none_or_its_error_kind(String record, String decision) {
    assertThat(Decisions.ofRecord(record.getBytes(StandardCharsets.UTF_8))).isEqualTo(decision);
  }

  @Test
  void no_payload_string_misleads_the_scan() throws JsonProcessingException {
    ObjectMapper json = new ObjectMapper();
    for (String tricky : List.of("}", "]", ",\"decision\":\"x\"", "\\", "\\\"", "\"", "é😀", "{[\"", "\u0000\n")) {
      Map<String, Object> record = new LinkedHashMap<>();
      record.put("payload", Map.of("note", tricky, "list", List.of(tricky, Map.of(tricky, tricky))));
      record.put("policy", "p");
      record.put("decision", "allow");
      record.put("outcome", List.of());

      assertThat(Decisions.ofRecord(json.writeValueAsBytes(record))).as(tricky).isEqualTo("allow");
    }
  }

  @Test
  void a_read_record_is_its_decision_none_or_its_error_kind() {
    EvalFailure conflict = new EvalFailure(EvalFailure.Kind.CONFLICT, Optional.empty(), "m", "h", List.of(), List.of());

    assertThat(Decisions.of(result(Optional.empty(), Optional.of("allow")))).isEqualTo("allow");
    assertThat(Decisions.of(result(Optional.empty(), Optional.empty()))).isEqualTo("none");
    assertThat(Decisions.of(result(Optional.of(conflict), Optional.of("deny")))).isEqualTo("error:conflict");
  }

  private static EvalResult result(Optional<EvalFailure> error, Optional<String> decision) {
    return new EvalResult(Optional.empty(), error, "p", decision, decision.map(d -> "r"), List.of(), List.of(), false,
        Optional.empty());
  }

  @Test
  void the_engines_record_is_read_like_its_result() {
    try (Pool pool = Pool.create(Fixtures.engine(), 1)) {
      Fixtures.installRefund(pool, "refund.desk");

      for (int amount : new int[] {40, 400}) {
        byte[] json = pool.evaluateJson("refund.desk", Fixtures.refund(amount, "web"), EvalOptions.defaults());
        EvalResult result = pool.evaluate("refund.desk", Fixtures.refund(amount, "web"));

        assertThat(Decisions.ofRecord(json)).isEqualTo(Decisions.of(result)).isEqualTo(amount < 100 ? "approve" : "deny");
      }
    }
  }
}
