package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The raw-JSON twins of the engine's operations answer the records exactly as the module wrote them. */
class RawRecordsTest extends EngineFixture {

  private static final SourceFile KIND =
      SourceFile.of(
          "kind.sigil",
          """
          kind Door version 1

          input floor: int

          decision allow {
            reason: member
          }

          collect all
          """);

  private static String text(byte[] json) {
    return new String(json, StandardCharsets.UTF_8);
  }

  @Test
  void checkJsonIsTheDiagnosticsListWithGoEscaping() {
    SourceFile typo = SourceFile.of("<x>.sigil", "policy door.main: Door@1\n\nwhen flor > 1 {\n  allow(reason: member)\n}\n");

    assertThat(text(engine.checkJson(List.of(KIND, typo), CheckOptions.defaults())))
        .isEqualTo("[{\"severity\":\"error\",\"file\":\"\\u003cx\\u003e.sigil\",\"document\":\"door.main\","
            + "\"message\":\"unknown name `flor`\",\"help\":\"did you mean `floor`?\",\"line\":3,\"column\":6}]");
  }

  @Test
  void aCleanCheckIsAnEmptyList() {
    SourceFile clean = SourceFile.of("door/main.sigil", "policy door.main: Door@1\n\nwhen floor > 0 {\n  allow(reason: member)\n}\n");

    assertThat(text(engine.checkJson(List.of(KIND, clean), CheckOptions.defaults()))).isEqualTo("[]");
  }

  @Test
  void explainJsonKeepsTheRecordsKeyOrder() {
    SourceFile policy = SourceFile.of("door/main.sigil", "policy door.main: Door@1\n\nwhen floor > 0 {\n  allow(reason: member)\n}\n");

    assertThat(text(engine.explainJson(List.of(KIND, policy), ExplainOptions.defaults())))
        .isEqualTo("[{\"policy\":\"door.main\",\"policies\":1,\"modules\":0,\"rules\":[{\"kind\":\"decision\","
            + "\"decision\":\"allow\",\"reason\":\"member\",\"chain\":[\"door.main:4\"],\"conditions\":[\"floor \\u003e 0\"]}]}]");
  }

  @Test
  void testJsonIsTheResultsList() {
    SourceFile policy = SourceFile.of("door/main.sigil", "policy door.main: Door@1\n\nwhen floor > 0 {\n  allow(reason: member)\n}\n");
    SourceFile tests = SourceFile.of("door/main_test.yaml",
        "policy: door.main\ncases:\n  - name: always\n    input: {floor: 1}\n    expect:\n      outcome:\n"
            + "        - {decision: allow, reason: member}\n");

    assertThat(text(engine.testJson(List.of(KIND, policy), List.of(tests), TestOptions.defaults())))
        .isEqualTo("[{\"file\":\"door/main_test.yaml\",\"policy\":\"door.main\",\"cases\":[{\"name\":\"always\","
            + "\"line\":3,\"passed\":true}]}]");
  }

  @Test
  void versionJsonIsTheRecordWithoutTheEnvelope() {
    assertThat(text(engine.versionJson())).startsWith("{\"version\":").contains("\"platform\":");
  }

  @Test
  void aRefusedRequestThrowsAsTheTypedOperationDoes() {
    assertThatThrownBy(() -> engine.checkJson(List.of(), CheckOptions.defaults()))
        .isInstanceOf(EngineException.class);
  }
}
