package dev.svc.engine.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.engine.Diagnostic;
import dev.svc.engine.EngineException;
import dev.svc.engine.VersionInfo;
import org.junit.jupiter.api.Test;

/** {@link AbiCodec}: how a response envelope unwraps (bindings.md §2 steps 9 and 10). */
class AbiCodecTest {

  private static final String VERSION =
      "\"version\":\"v\",\"commit\":\"c\",\"commitTime\":\"t\",\"dirty\":false,\"goVersion\":\"g\",\"platform\":\"p\"";

  private static byte[] json(String text) {
    return text.getBytes(UTF_8);
  }

  @Test
  void anOkResponseIsTheOpsBodyWithoutItsEnvelope() {
    VersionInfo plain = AbiCodec.decode(json("{\"ok\":true," + VERSION + "}"), VersionInfo.class);
    VersionInfo withId = AbiCodec.decode(json("{\"id\":7,\"ok\":true," + VERSION + "}"), VersionInfo.class);

    assertThat(plain).isEqualTo(new VersionInfo("v", "c", "t", false, "g", "p"));
    assertThat(withId).isEqualTo(plain);
    assertThat(new String(AbiCodec.body(json("{\"ok\":true," + VERSION + "}")), UTF_8))
        .isEqualTo("{" + VERSION + "}");
    assertThat(new String(AbiCodec.body(json("{\"ok\":true}")), UTF_8)).isEqualTo("{}");
  }

  @Test
  void aFailureIsAnEngineExceptionWithTheModulesMessageHelpAndDiagnostics() {
    String failure =
        "{\"ok\":false,\"error\":{\"message\":\"m\",\"help\":\"h\"},"
            + "\"diagnostics\":[{\"severity\":\"error\",\"file\":\"a.sigil\",\"message\":\"bad\",\"line\":1,\"column\":2}]}";

    assertThatThrownBy(() -> AbiCodec.decode(json(failure), VersionInfo.class))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo("m");
              assertThat(e.help()).isEqualTo("h");
              assertThat(e.diagnostics()).extracting(Diagnostic::render).containsExactly("a.sigil:1:2: error: bad");
            });
  }

  @Test
  void aFailureWithoutMessageHelpOrDiagnosticsSaysSo() {
    for (String failure : new String[] {"{\"ok\":false}", "{\"ok\":false,\"error\":{\"message\":\"\",\"help\":\"\"}}"}) {
      assertThatThrownBy(() -> AbiCodec.decode(json(failure), VersionInfo.class))
          .isInstanceOfSatisfying(
              EngineException.class,
              e -> {
                assertThat(e.message()).isEqualTo("the module returned an error without a message");
                assertThat(e.help()).isEmpty();
                assertThat(e.diagnostics()).isEmpty();
              });
      assertThatThrownBy(() -> AbiCodec.body(json(failure))).isInstanceOf(EngineException.class);
    }
  }

  @Test
  void aResponseOfAnotherShapeSaysItDoesntFit() {
    assertThatThrownBy(() -> AbiCodec.decode(json("{\"ok\":true,\"version\":7}"), VersionInfo.class))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).startsWith("the module's response doesn't fit this library's types: ");
              assertThat(e.help()).isEqualTo("use the engine.wasm built from the same svc revision as this library");
            });
    assertThatThrownBy(() -> AbiCodec.decode(json("[1]"), VersionInfo.class))
        .isInstanceOfSatisfying(
            EngineException.class, e -> assertThat(e.message()).isEqualTo("the module's response isn't a JSON object"));
    assertThatThrownBy(() -> AbiCodec.decode(json("{\"id\":1}"), VersionInfo.class))
        .isInstanceOfSatisfying(
            EngineException.class, e -> assertThat(e.message()).isEqualTo("the module's response has no ok field"));
  }
}
