package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Required policies and trusted files through {@link CompileOptions} and {@link CheckOptions}
 * (module ABI §6–§7, bindings.md §17.3): the library sends them, the engine enforces them.
 */
class RequiredPoliciesTest extends EngineFixture {

  private static final SourceFile KIND =
      SourceFile.of(
          "kind.sigil",
          """
          kind Door version 1

          input floor: int

          decision deny {
            reason: basement | no_rule
          }

          decision allow {
            reason: member
          }

          collect one
          precedence deny > allow

          default deny(reason: no_rule)
          """);

  private static final SourceFile GUARD =
      SourceFile.of(
          "platform/guard.sigil",
          "policy door.guard: Door@1\n\nwhen floor < 0 {\n  deny(reason: basement)\n}\n");

  private static SourceFile team(String body) {
    return SourceFile.of("team/main.sigil", "policy team.main: Door@1\n\nuse door.guard\n\n" + body);
  }

  private static final SourceFile INVOKES =
      team("guard()\n\nwhen floor > 1 {\n  allow(reason: member)\n}\n");

  private static final CompileOptions REQUIRE =
      CompileOptions.defaults().withPolicy("team.main").withRequired("door.guard");

  @Test
  void withoutTrustedFilesAnyPolicyOfTheFilesSatisfiesARequirement() {
    try (Policy policy = engine.compile(List.of(KIND, GUARD, INVOKES), REQUIRE)) {
      assertThat(policy.eval(Map.of("floor", -1)).reason()).contains("basement");
      assertThat(policy.eval(Map.of("floor", 2)).reason()).contains("member");
    }
  }

  private static final String FIX_HELP =
      "fix the errors in the diagnostics; the check op reports every problem in a bundle at once";

  /** {@code compile} fails with {@code message}, the help to fix diagnostics, and {@code diagnostic}. */
  private void assertRefused(List<SourceFile> files, CompileOptions options, String message, String diagnostic) {
    assertThatThrownBy(() -> engine.compile(files, options))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo(message);
              assertThat(e.help()).isEqualTo(FIX_HELP);
              assertThat(e.diagnostics()).extracting(Diagnostic::render).containsExactly(diagnostic);
            });
    assertThat(engine.stopped()).isEmpty();
  }

  @Test
  void aRootThatDoesntInvokeTheRequiredPolicyDoesntCompile() {
    SourceFile ignores = team("when floor > 1 {\n  allow(reason: member)\n}\n");

    assertRefused(
        List.of(KIND, GUARD, ignores),
        REQUIRE,
        "the policy doesn't compile, so nothing was compiled",
        "team/main.sigil:1:1: error: team.main doesn't invoke door.guard (help: the host requires door.guard"
            + " for every Door policy; import it with `use door.guard` and invoke it at the top level)");
  }

  @Test
  void aRequiredPolicyInvokedUnderWhenDoesntCount() {
    SourceFile gated = team("when floor > 1 {\n  guard()\n}\n");

    assertRefused(
        List.of(KIND, GUARD, gated),
        REQUIRE,
        "the policy doesn't compile, so nothing was compiled",
        "team/main.sigil:6:3: error: door.guard must be invoked unconditionally (help: the host requires"
            + " door.guard for every Door policy; move the call to the top level)");
  }

  @Test
  void withTrustedFilesTheRequiredPolicyIsTheTrustedOne() {
    try (Policy policy = engine.compile(List.of(INVOKES), REQUIRE.withTrustedFiles(List.of(KIND, GUARD)))) {
      assertThat(policy.eval(Map.of("floor", -1)).reason()).contains("basement");
    }
  }

  @Test
  void withTrustedFilesACopyAmongTheFilesDoesntCount() {
    assertRefused(
        List.of(GUARD, INVOKES),
        REQUIRE.withTrustedFiles(List.of(KIND)),
        "require[0]: door.guard isn't among the trusted files",
        "platform/guard.sigil:1:1: error: door.guard must come from the trusted files, but it's defined here"
            + " (help: the host reads a required policy only from its trusted source, as policy.From does;"
            + " define it there, and remove this definition)");
  }

  @Test
  void withTrustedFilesThatDontDefineItNothingCompiles() {
    assertThatThrownBy(() -> engine.compile(List.of(INVOKES), REQUIRE.withTrustedFiles(List.of(KIND))))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message())
                  .isEqualTo("require[0]: door.guard is required, but the trusted files define no policy door.guard");
              assertThat(e.help()).isEqualTo("send the document that defines it among trusted_files");
            });
  }

  @Test
  void theTeamCantRedefineATrustedPolicy() {
    SourceFile redefined = SourceFile.of("team/guard.sigil", "policy door.guard: Door@1\n");

    assertRefused(
        List.of(redefined, INVOKES),
        REQUIRE.withTrustedFiles(List.of(KIND, GUARD)),
        "team.main doesn't check, so nothing was compiled",
        "team/guard.sigil:1:8: error: policy door.guard is defined twice (help: the name belongs to the"
            + " trusted source, defined at platform/guard.sigil:1:1; documents resolve by name, so each name"
            + " has one definition)");
  }

  @Test
  void aPathInBothListsIsRefused() {
    assertThatThrownBy(() -> engine.compile(List.of(GUARD, INVOKES), REQUIRE.withTrustedFiles(List.of(KIND, GUARD))))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo("platform/guard.sigil is among both the files and the trusted files");
              assertThat(e.help()).isEqualTo("a trusted file's path belongs to it; give the other file another path");
            });
  }

  @Test
  void checkReadsTheTrustedFilesAndTheirRequirements() {
    SourceFile ignores = team("when floor > 1 {\n  allow(reason: member)\n}\n");
    CheckOptions trusted = CheckOptions.defaults().withTrustedFiles(List.of(KIND, GUARD));

    assertThat(engine.check(List.of(INVOKES), trusted)).isEmpty();
    assertThat(engine.check(List.of(ignores), trusted.withRequirement(Requirement.of("door.guard"))))
        .extracting(Diagnostic::message)
        .containsExactly("team.main doesn't invoke door.guard", "door.guard is imported but never used");
  }
}
