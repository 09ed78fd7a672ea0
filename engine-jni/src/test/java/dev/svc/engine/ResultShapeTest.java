package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.engine.internal.AbiCodec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link ResultShape} on {@link EvalResult} and {@link Policy#stampResults}: a mark the host keeps
 * beside the eval record, never part of its JSON.
 */
class ResultShapeTest {

  private static final ResultShape RANKED = new ResultShape(true, true);

  private static final SourceFile KIND =
      SourceFile.of(
          "kind.sigil",
          """
          kind Grants version 1

          input oncall: bool

          decision admin {
            reason: oncall
          }

          collect all
          precedence admin
          """);

  private static final SourceFile MAIN =
      SourceFile.of(
          "grants.sigil",
          """
          policy grants.main: Grants@1

          when oncall {
            admin(reason: oncall)
          }
          """);

  private static EvalResult decode(String json) throws Exception {
    return AbiCodec.MAPPER.readValue(json, EvalResult.class);
  }

  @Test
  void theShapeIsNotPartOfTheRecordsJson() throws Exception {
    EvalResult plain = decode("{\"policy\":\"p\",\"outcome\":[],\"trace\":[],\"collect\":true}");
    EvalResult shaped = plain.withShape(RANKED);

    JsonNode json = AbiCodec.MAPPER.valueToTree(shaped);

    assertThat(json).isEqualTo(AbiCodec.MAPPER.valueToTree(plain));
    assertThat(json.has("shape")).isFalse();
    assertThat(shaped.shape()).contains(RANKED);
    assertThat(plain.shape()).isEmpty();
  }

  @Test
  void aDecodedRecordHasNoShapeWhateverTheJsonSays() throws Exception {
    EvalResult decoded =
        decode(
            "{\"policy\":\"p\",\"outcome\":[],\"trace\":[],\"collect\":true,"
                + "\"shape\":{\"collect\":true,\"ranked\":true}}");

    assertThat(decoded.shape()).isEmpty();
    assertThat(decoded.collect()).isTrue();
  }

  @Test
  void aStampedPolicyMarksEveryLaterResult() {
    try (Engine engine = Engine.create(TestModules.engine());
        Policy policy = engine.compile(List.of(KIND, MAIN), CompileOptions.defaults())) {
      assertThat(policy.eval(Map.of("oncall", true)).shape()).isEmpty();

      policy.stampResults(RANKED);

      assertThat(policy.eval(Map.of("oncall", true)).shape()).contains(RANKED);
      assertThat(policy.eval(Map.of("oncall", false)).shape()).contains(RANKED);
    }
  }

  @Test
  void nullIsRefusedNamingTheParameter() throws Exception {
    EvalResult plain = decode("{\"policy\":\"p\",\"outcome\":[],\"trace\":[]}");

    assertThatThrownBy(() -> plain.withShape(null)).hasMessage("shape");
  }
}
