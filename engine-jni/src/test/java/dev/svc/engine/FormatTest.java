package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.engine.internal.CallingThread;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link Engine#format} over the real engine.wasm. */
class FormatTest extends EngineFixture {

  private static final String SYNTAX_HELP = "fix the syntax errors; fmt only formats files that parse";

  @Test
  void formatsToTheCanonicalStyle() {
    String messy =
        """
        policy   payments.deploy:DeployGate@1
        param soak: duration = 4h, max: 72h, min: 1h
        when release.soak >= soak and
            release.approved { approve(reason: soaked) }
        """;

    assertThat(engine.format(messy))
        .isEqualTo(
            """
            policy payments.deploy: DeployGate@1

            param soak: duration = 4h, min: 1h, max: 72h

            when release.soak >= soak
              and release.approved {
              approve(reason: soaked)
            }
            """);
  }

  @Test
  void aCanonicalSourceComesBackUnchanged() {
    String canonical =
        """
        // The deploy gate.
        policy payments.deploy: DeployGate@1

        let owners = [
          "alice", // on call
          "bob",
        ]

        when actor in owners {
          approve(reason: owner)
        }
        """;

    assertThat(engine.format(canonical)).isEqualTo(canonical);
  }

  @Test
  void nonAsciiTextAndCommentsRoundTrip() {
    String source = "policy a.b: K@1\nlet s = \"é <&> 😀 \\u00e9\" // ünïcödé, 日本\n";

    assertThat(engine.format(source))
        .isEqualTo("policy a.b: K@1\n\nlet s = \"é <&> 😀 \\u00e9\" // ünïcödé, 日本\n");
  }

  @Test
  void anEmptySourceFormatsToTheEmptyString() {
    assertThat(engine.format("")).isEmpty();
    assertThat(engine.format("\n\n")).isEmpty();
  }

  @Test
  void aSourceThatDoesNotParseThrowsWithItsSyntaxErrors() {
    assertThatThrownBy(() -> engine.format("policy a.b: K@1\nlet = 1\n"))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo("<stdin> has syntax errors");
              assertThat(e.help()).isEqualTo(SYNTAX_HELP);
              assertThat(e.isStopped()).isFalse();
              assertThat(e.diagnostics())
                  .containsExactly(
                      new Diagnostic(
                          "error",
                          Optional.empty(),
                          Optional.of("<stdin>"),
                          Optional.empty(),
                          "expected a name after `let`, found `=`",
                          Optional.of("a let is written `let name = expression`"),
                          2,
                          5));
            });
    assertThat(engine.format("policy a.b: K@1\n")).isEqualTo("policy a.b: K@1\n");
  }

  @Test
  void thePathNamesTheFileOfTheDiagnostics() {
    FormatOptions options = FormatOptions.defaults().withPath("payments/déploy.sigil");

    assertThatThrownBy(() -> engine.format("policy a.b: K@1\nlet é = 1\n", options))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo("payments/déploy.sigil has syntax errors");
              assertThat(e.diagnostics()).hasSize(1);
              Diagnostic d = e.diagnostics().get(0);
              assertThat(d.file()).contains("payments/déploy.sigil");
              assertThat(d.document()).isEmpty();
              assertThat(d.message()).isEqualTo("unexpected character `é`");
              assertThat(d.line()).isEqualTo(2);
              assertThat(d.column()).isEqualTo(5);
              assertThat(e.getMessage())
                  .isEqualTo(
                      "payments/déploy.sigil has syntax errors\n  help: "
                          + SYNTAX_HELP
                          + "\n  payments/déploy.sigil:2:5: error: unexpected character `é`");
            });
  }

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void nestingAtTheParsersLimitFormats(CallingThread thread) throws Exception {
    thread.run(() -> {
      String deep = "(".repeat(254) + "a" + ")".repeat(254);
      String source = "policy a.b: K@1\n\nlet x = " + deep + "\n";

      assertThat(engine.format(source)).isEqualTo(source);
      assertThat(engine.stopped()).isEmpty();
    });
  }

  @Test
  void nullArgumentsAreRefusedByName() {
    assertThatThrownBy(() -> engine.format(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("source");
    assertThatThrownBy(() -> engine.format("", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("options");
    assertThatThrownBy(() -> FormatOptions.defaults().withPath(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("path");
    assertThatThrownBy(() -> new FormatOptions(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("path");
  }

  @Test
  void optionsDefaultToNoPath() {
    assertThat(FormatOptions.defaults().path()).isEmpty();
    assertThat(FormatOptions.defaults().withPath("a.sigil").path()).contains("a.sigil");
  }
}
