package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.engine.internal.AbiCodec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link Engine#explain} and {@link Policy#explain()} over the real engine.wasm. */
class ExplainTest extends EngineFixture {

  private static final SourceFile KIND =
      SourceFile.of(
          "gate.sigil",
          """
          kind Gate version 1

          input user: string
          input hours: int

          decision deny {
            reason: too_long
          }

          decision grant {
            reason: owner
            hours: int = 1
          }

          collect one
          precedence deny > grant

          default deny(reason: too_long)
          """);

  private static final SourceFile LIMIT =
      SourceFile.of(
          "gate/limit.sigil",
          """
          policy gate.limit: Gate@1

          param most: int = 8, min: 1, max: 24

          when hours > most {
            deny(reason: too_long)
          }

          assert("known_user", user != "")
          """);

  private static final SourceFile MAIN =
      SourceFile.of(
          "gate/main.sigil",
          """
          policy gate.main: Gate@1

          use gate.limit

          limit(most: 12)

          when user == "ana" {
            grant(reason: owner, hours: hours)
          }
          """);

  private static final List<SourceFile> FILES = List.of(KIND, LIMIT, MAIN);

  @Test
  void aCompiledPolicyExplainsAsItsFilesDo() {
    try (Policy policy = engine.compile(FILES, CompileOptions.defaults().withPolicy("gate.main"))) {
      Explanation explained = policy.explain();
      assertThat(explained.policy()).isEqualTo("gate.main");
      assertThat(explained.policies()).isEqualTo(2);
      assertThat(explained.modules()).isZero();
      assertThat(explained.rules())
          .containsExactly(
              new ExplainEntry(
                  "decision",
                  Optional.of("deny"),
                  "too_long",
                  Optional.empty(),
                  List.of("gate.main:5", "gate.limit:6"),
                  List.of("hours > 12"),
                  Optional.empty(),
                  List.of()),
              new ExplainEntry(
                  "decision",
                  Optional.of("grant"),
                  "owner",
                  Optional.empty(),
                  List.of("gate.main:8"),
                  List.of("user == \"ana\""),
                  Optional.empty(),
                  List.of("hours = hours")),
              new ExplainEntry(
                  "assert",
                  Optional.empty(),
                  "known_user",
                  Optional.of("input"),
                  List.of("gate.main:5", "gate.limit:9"),
                  List.of(),
                  Optional.of("user != \"\""),
                  List.of()));
      assertThat(engine.explain(FILES, ExplainOptions.defaults().withPolicy("*.main")))
          .containsExactly(explained);
    }
  }

  @Test
  void withoutAPolicyEveryOneOutsideTheTrustedFilesIsExplainedByName() {
    assertThat(engine.explain(FILES, ExplainOptions.defaults()))
        .extracting(Explanation::policy)
        .containsExactly("gate.limit", "gate.main");
    List<Explanation> trusted =
        engine.explain(
            List.of(KIND, MAIN), ExplainOptions.defaults().withTrustedFiles(List.of(LIMIT)));
    assertThat(trusted).extracting(Explanation::policy).containsExactly("gate.main");
    assertThat(trusted.get(0).rules()).hasSize(3);
  }

  @Test
  void theRecordsWriteBackTheEnginesJson() throws Exception {
    SourceFile empty = SourceFile.of("gate/empty.sigil", "policy gate.empty: Gate@1\n");
    List<SourceFile> files = List.of(KIND, LIMIT, MAIN, empty);
    ObjectNode request = AbiCodec.MAPPER.createObjectNode().put("op", "explain");
    request.set("files", AbiCodec.MAPPER.valueToTree(files));
    JsonNode raw = AbiCodec.MAPPER.readTree(engine.call(request.toString())).get("explanations");
    List<Explanation> explained = engine.explain(files, ExplainOptions.defaults());
    assertThat(explained.get(0).rules()).isEmpty();
    assertThat(raw.get(0).get("rules").isNull()).isTrue();
    assertThat((JsonNode) AbiCodec.MAPPER.valueToTree(explained)).isEqualTo(raw);
  }

  @Test
  void explainFailuresSayWhatStoppedThem() {
    assertThatThrownBy(() -> engine.explain(FILES, ExplainOptions.defaults().withPolicy("x.*")))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo("no policy matches \"x.*\"");
              assertThat(e.help()).isEqualTo("the bundle defines: gate.limit, gate.main");
            });
    SourceFile tooLong =
        SourceFile.of(
            "gate/main.sigil",
            "policy gate.main: Gate@1\n\nuse gate.limit\n\nparam most: int = 30\n\nlimit(most: most)\n");
    assertThatThrownBy(
            () ->
                engine.explain(
                    List.of(KIND, LIMIT, tooLong), ExplainOptions.defaults().withPolicy("gate.main")))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message())
                  .isEqualTo("policy gate.main doesn't compile, so it wasn't explained");
              assertThat(e.diagnostics())
                  .extracting(Diagnostic::message, Diagnostic::line)
                  .containsExactly(tuple("most: 30 is above the maximum 24", 7));
            });
    SourceFile broken =
        SourceFile.of(
            "gate/main.sigil",
            "policy gate.main: Gate@1\n\nwhen usr == \"a\" {\n  grant(reason: owner)\n}\n");
    assertThatThrownBy(() -> engine.explain(List.of(KIND, broken), ExplainOptions.defaults()))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message())
                  .isEqualTo("the policies to explain don't check, so nothing was explained");
              assertThat(e.diagnostics())
                  .extracting(Diagnostic::message)
                  .containsExactly("unknown name `usr`");
            });
    assertThat(engine.stopped()).isEmpty();
  }

  @Test
  void aClosedPolicyHasNoExplanation() {
    Policy policy = engine.compile(FILES, CompileOptions.defaults().withPolicy("gate.main"));
    policy.close();
    assertThatThrownBy(policy::explain)
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> assertThat(e.message()).isEqualTo("policy gate.main was released"));
  }

  @Test
  void anEngineThatAnswersNoExplanationIsReportedAsABug() {
    try (EngineModule module = EngineModule.fromBytes(TestModules.wat("engine_answers_ok"));
        Engine fake = Engine.create(module);
        Policy policy =
            new Policy(fake.instance(), new Policy.Compiled("gate.main", List.of(), 1), Map.of())) {
      assertThatThrownBy(policy::explain)
          .isInstanceOfSatisfying(
              EngineException.class,
              e -> {
                assertThat(e.message())
                    .isEqualTo("the module returned no explanation for policy gate.main");
                assertThat(e.help()).isEqualTo("this is a bug in the engine; please report it");
              });
      assertThat(fake.explain(FILES, ExplainOptions.defaults())).isEmpty();
    }
  }

  @Test
  void nullArgumentsAreRefusedByName() {
    assertThatThrownBy(() -> engine.explain(null, ExplainOptions.defaults()))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("files");
    assertThatThrownBy(() -> engine.explain(FILES, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("options");
    assertThatThrownBy(() -> new ExplainOptions(null, List.of()))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("policy");
  }
}
