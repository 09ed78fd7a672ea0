package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.engine.internal.CallingThread;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link Engine#check} over the real engine.wasm. */
class CheckTest extends EngineFixture {

  private static final SourceFile KIND =
      SourceFile.of(
          "kind.sigil",
          """
          kind Door version 1

          input floor: int
          input zone: string

          decision allow {
            reason: member
          }

          collect all
          """);

  private static SourceFile policy(String path, String body) {
    return SourceFile.of(path, "policy door.main: Door@1\n\n" + body);
  }

  @Test
  void aCleanBundleHasNoDiagnostics() {
    SourceFile clean = policy("door/main.sigil", "when floor > 1 {\n  allow(reason: member)\n}\n");

    assertThat(engine.check(List.of(KIND, clean))).isEmpty();
  }

  @Test
  void typeErrorsAreAResultWithEveryField() {
    SourceFile typo = policy("./x.sigil", "when flor > 1 {\n  allow(reason: member)\n}\n");

    assertThat(engine.check(List.of(KIND, typo)))
        .containsExactly(
            new Diagnostic(
                "error",
                Optional.empty(),
                Optional.of("x.sigil"),
                Optional.of("door.main"),
                "unknown name `flor`",
                Optional.of("did you mean `floor`?"),
                3,
                6));
    assertThat(engine.stopped()).isEmpty();
  }

  @Test
  void lintsReportAtTheirConfiguredLevels() {
    SourceFile spare =
        policy("door/main.sigil", "let spare = 1\n\nwhen true {\n  allow(reason: member)\n}\n");

    Diagnostic warning = engine.check(List.of(KIND, spare)).get(0);
    assertThat(warning.severity()).isEqualTo("warning");
    assertThat(warning.lint()).contains("unused-let");
    assertThat(warning.message()).isEqualTo("let spare is never read");

    List<Diagnostic> asError =
        engine.check(
            List.of(KIND, spare), CheckOptions.defaults().withLint("unused-let", LintLevel.ERROR));
    assertThat(asError).extracting(Diagnostic::severity).containsExactly("error");

    List<Diagnostic> off =
        engine.check(
            List.of(KIND, spare), CheckOptions.defaults().withLint("unused-let", LintLevel.OFF));
    assertThat(off).isEmpty();
  }

  @Test
  void policyPatternsNarrowTheCheck() {
    SourceFile good =
        SourceFile.of("good.sigil", "policy good: Door@1\nwhen true { allow(reason: member) }\n");
    SourceFile bad =
        SourceFile.of("bad.sigil", "policy bad: Door@1\nwhen nope { allow(reason: member) }\n");

    assertThat(engine.check(List.of(KIND, good, bad))).hasSize(1);
    assertThat(engine.check(List.of(KIND, good, bad), CheckOptions.defaults().withPolicies("go*")))
        .isEmpty();
  }

  @Test
  void requiredPoliciesMustBeInvokedUnconditionallyByEveryRoot() {
    SourceFile guard =
        SourceFile.of(
            "platform/guard.sigil",
            "policy door.guard: Door@1\n\nwhen floor < 0 {\n  allow(reason: member)\n}\n");
    SourceFile invokes =
        SourceFile.of("team/a.sigil", "policy team.a: Door@1\n\nuse door.guard\n\nguard()\n");
    SourceFile gated =
        SourceFile.of(
            "team/b.sigil",
            "policy team.b: Door@1\n\nuse door.guard\n\nwhen floor > 2 {\n  guard()\n}\n");
    List<SourceFile> files = List.of(KIND, guard, invokes, gated);
    Requirement required = Requirement.of("door.guard").withTrusted("./platform/");

    assertThat(engine.check(files)).isEmpty();
    assertThat(engine.check(files, CheckOptions.defaults().withRequirement(required)))
        .containsExactly(
            new Diagnostic(
                "error",
                Optional.empty(),
                Optional.of("team/b.sigil"),
                Optional.of("team.b"),
                "door.guard must be invoked unconditionally",
                Optional.of(
                    "the host requires door.guard for every Door policy; move the call to the top"
                        + " level"),
                6,
                3));
    assertThat(
            engine.check(
                files,
                CheckOptions.defaults().withRequirement(required.withRoots("team.a"))))
        .isEmpty();
    assertThatThrownBy(
            () ->
                engine.check(
                    files,
                    CheckOptions.defaults().withRequirement(required.withTrusted("vendor"))))
        .isInstanceOfSatisfying(
            EngineException.class,
            e ->
                assertThat(e.message())
                    .isEqualTo("require[0]: the trusted path vendor of door.guard holds no file"));
  }

  @Test
  void requestsThatCantBeCheckedThrowWithHelp() {
    assertThatThrownBy(() -> engine.check(List.of()))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> assertThat(e.message()).isEqualTo("the request holds no files"));
    assertThatThrownBy(
            () ->
                engine.check(
                    List.of(KIND), CheckOptions.defaults().withLint("unused-lett", LintLevel.WARN)))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo("lints: unknown lint \"unused-lett\"");
              assertThat(e.help()).startsWith("did you mean \"unused-let\"? the lints are");
            });
    assertThatThrownBy(
            () -> engine.check(List.of(KIND), CheckOptions.defaults().withPolicies("nothing")))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo("no policy matches \"nothing\"");
              assertThat(e.help()).isEqualTo("the bundle defines no policies");
            });
    assertThatThrownBy(() -> SourceFile.of("", "x")).isInstanceOf(IllegalArgumentException.class);
    assertThat(engine.stopped()).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void nestingFarPastTheLimitIsADiagnosticNeverACrash(CallingThread thread) throws Exception {
    thread.run(() -> {
      String deep = "(".repeat(100_000) + "floor" + ")".repeat(100_000);
      SourceFile nested = policy("door/main.sigil", "when " + deep + " > 1 {\n  allow(reason: member)\n}\n");

      assertThat(engine.check(List.of(KIND, nested)))
          .extracting(Diagnostic::message)
          .contains("this expression nests more than 256 levels deep");
      assertThat(engine.stopped()).isEmpty();
      assertThat(engine.check(List.of(KIND))).isEmpty();
    });
  }

  @Test
  void randomDocumentsNeverStopTheInstance() {
    String[] words = {
      "policy", "a.b:", "Door@1", "when", "let", "x", "=", "floor", "zone", "allow(reason:",
      "member)", "{", "}", "(", ")", "[", "]", "and", "or", "not", "in", "\"s\"", "1", "1h",
      "any", "y", ":", "==", "??", "?.", ".", ",", "use", "module", "\n"
    };
    Random random = new Random(20261121L);
    for (int i = 0; i < 300; i++) {
      List<String> soup = new ArrayList<>();
      for (int w = random.nextInt(40); w > 0; w--) {
        soup.add(words[random.nextInt(words.length)]);
      }
      List<Diagnostic> found =
          engine.check(List.of(KIND, SourceFile.of("p.sigil", String.join(" ", soup))));
      assertThat(found).allSatisfy(d -> assertThat(d.message()).isNotEmpty());
    }
    assertThat(engine.stopped()).isEmpty();
    assertThat(engine.version().platform()).isEqualTo("wasip1/wasm");
  }
}
