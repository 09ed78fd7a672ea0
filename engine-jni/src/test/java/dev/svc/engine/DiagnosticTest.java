package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.engine.internal.AbiCodec;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link Diagnostic}: its one-line rendering (bindings.md §11) and its JSON. */
class DiagnosticTest {

  private static Diagnostic diagnostic(String file, int line, int column, String help) {
    return new Diagnostic(
        "error",
        Optional.empty(),
        Optional.ofNullable(file),
        Optional.empty(),
        "unknown field",
        Optional.ofNullable(help),
        line,
        column);
  }

  @Test
  void aDiagnosticRendersWhereItIsWhatAndWhatToDoLeavingOutWhatIsAbsent() {
    assertThat(diagnostic("a.sigil", 2, 12, "did you mean x?").render())
        .isEqualTo("a.sigil:2:12: error: unknown field (help: did you mean x?)");
    assertThat(diagnostic("a.sigil", 2, 0, null).render()).isEqualTo("a.sigil:2: error: unknown field");
    assertThat(diagnostic("a.sigil", 0, 5, null).render()).isEqualTo("a.sigil: error: unknown field");
    assertThat(diagnostic(null, 2, 12, null).render()).isEqualTo("error: unknown field");
    assertThat(
            new Diagnostic("warning", Optional.of("unused-let"), Optional.empty(), Optional.empty(),
                    "unknown field", Optional.empty(), 0, 0)
                .render())
        .isEqualTo("warning: unknown field");
  }

  @Test
  void theJsonLeavesOutWhatIsAbsentAsTheEngineDoes() throws Exception {
    String json =
        "{\"severity\":\"error\",\"file\":\"a.sigil\",\"document\":\"a.b\",\"message\":\"m\",\"help\":\"h\","
            + "\"line\":2,\"column\":12}";

    Diagnostic read = AbiCodec.MAPPER.readValue(json, Diagnostic.class);

    assertThat(AbiCodec.MAPPER.writeValueAsString(read)).isEqualTo(json);
    assertThat(AbiCodec.MAPPER.writeValueAsString(diagnostic(null, 0, 0, null)))
        .isEqualTo("{\"severity\":\"error\",\"message\":\"unknown field\"}");
  }
}
