package dev.svc.cli.policy;

import static dev.svc.cli.policy.PolicyRun.assertGolden;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CheckCommandTest {

  @TempDir Path dir;

  private Path typoProject() throws IOException {
    PolicyRun.project(dir);
    Path gate = dir.resolve("deploy/gate.sigil");
    Files.writeString(gate, Files.readString(gate).replace("user.tier == gold", "user.teir == gold")
        + "\nlet spare = 1\n");
    return dir;
  }

  @ParameterizedTest
  @ValueSource(strings = {"01-refund-gate", "02-door-access", "03-tool-grants", "04-change-asserts", "05-deploy-composition"})
  void every_spec_example_checks_clean(String scenario) {
    PolicyRun text = PolicyRun.in(PolicyRun.scenario(scenario), "check");
    PolicyRun json = PolicyRun.in(PolicyRun.scenario(scenario), "check", "-o", "json");

    assertThat(text.exit()).isZero();
    assertThat(text.out()).matches("✓ checked \\d+ files, no problems found\n");
    assertThat(json.exit()).isZero();
    assertThat(json.out()).isEqualTo("[]\n");
    assertThat(json.err()).isEmpty();
  }

  @Test
  void the_policy_examples_check_clean_as_one_directory() {
    PolicyRun run = PolicyRun.in(PolicyRun.examples(), "check", "policies");

    assertThat(run.exit()).isZero();
    assertThat(run.out()).isEqualTo("✓ checked 13 files, no problems found\n");
  }

  @Test
  void a_directory_of_bare_expressions_reports_each_file_that_holds_no_document() {
    // The core examples are expression cases (`mode: expr`), not documents. With no pattern
    // narrowing the check, a file left with no document keeps its syntax error, as in the reference.
    PolicyRun run = PolicyRun.in(PolicyRun.examples(), "check", "core");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out()).contains("core/21-int-overflow.sigil:8:1: error: expected a document header"
        + " (`policy`, `module` or `kind`), found `9223372036854775807`\n");
    assertThat(run.out()).endsWith("\n✗ checked 26 files, 26 errors\n");
  }

  @Test
  void errors_and_warnings_print_in_every_format_and_fail() throws IOException {
    typoProject();
    PolicyRun text = PolicyRun.in(dir, "check");
    PolicyRun color = PolicyRun.in(dir, "check", "--color", "always");
    PolicyRun json = PolicyRun.in(dir, "check", "-o", "json");
    PolicyRun yaml = PolicyRun.in(dir, "check", "-o", "yaml", "--color", "always");

    assertGolden("check_errors.golden", text.out());
    assertGolden("check_errors_color.golden", color.out());
    assertGolden("check_errors_json.golden", json.out());
    assertGolden("check_errors_yaml.golden", yaml.out());
    assertThat(text.out()).endsWith("\n\n✗ checked 3 files, 1 error\n");
    assertThat(text.exit()).isEqualTo(1);
    assertThat(color.exit()).isEqualTo(1);
    assertThat(json.exit()).isEqualTo(1);
    assertThat(yaml.exit()).isEqualTo(1);
    assertThat(json.err()).isEmpty();
  }

  @Test
  void warnings_alone_keep_the_status_zero() throws IOException {
    PolicyRun.project(dir);
    Files.writeString(dir.resolve("deploy/gate.sigil"), "\nlet spare = 1\n", java.nio.file.StandardOpenOption.APPEND);

    PolicyRun run = PolicyRun.in(dir, "check");

    assertThat(run.exit()).isZero();
    assertThat(run.out()).endsWith("\n\n! checked 3 files, 1 warning\n");
  }

  @Test
  void auto_colour_follows_the_terminal_and_no_color() throws IOException {
    typoProject();
    Workspace terminal = new Workspace(dir, java.io.InputStream.nullInputStream(), Map.of(), true);
    Workspace noColor = new Workspace(dir, java.io.InputStream.nullInputStream(), Map.of("NO_COLOR", "1"), true);

    assertThat(PolicyRun.with(terminal, "check").out()).contains("\u001b[");
    assertThat(PolicyRun.with(noColor, "check").out()).doesNotContain("\u001b[");
    assertThat(PolicyRun.with(terminal, "check", "--color", "never").out()).doesNotContain("\u001b[");
  }

  @Test
  void a_configuration_file_raises_a_lint_to_an_error() throws IOException {
    PolicyRun.project(dir);
    Files.writeString(dir.resolve("deploy/gate.sigil"), "\nlet spare = 1\n", java.nio.file.StandardOpenOption.APPEND);
    Files.writeString(dir.resolve("sigil.yaml"), "lints:\n  unused-let: error\n");

    PolicyRun run = PolicyRun.in(dir.resolve("deploy"), "check", ".", "../access.sigil");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out()).contains("error: let spare is never read [unused-let]")
        .endsWith("✗ checked 3 files, 1 error\n");
  }

  @Test
  void a_configuration_key_that_is_wrong_names_its_position_and_the_nearest_key() throws IOException {
    PolicyRun.project(dir);
    Files.writeString(dir.resolve("sigil.yaml"), "require:\n  - policy: deploy.gate\n    root: deploy.*\n");

    PolicyRun run = PolicyRun.in(dir, "check", "-o", "json");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo("""
        Error: sigil.yaml:3:5: unknown key "root" in require[0]

        What you can do
          • did you mean "roots"?
          • a require entry holds `policy:`, `trusted:` and `roots:`
        """);
  }

  @Test
  void an_unknown_lint_in_a_json_configuration_gets_a_did_you_mean() throws IOException {
    PolicyRun.project(dir);
    Files.writeString(dir.resolve("sigil.json"), "{\"lints\": {\"gated-deni\": \"error\"}}");

    PolicyRun run = PolicyRun.in(dir, "check");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).startsWith("""
        Error: sigil.json:1:12: unknown lint "gated-deni"

        What you can do
          • did you mean "gated-deny"?
          • the lints are unused-import, shadowed-kind-name, unused-let,""");
  }

  @Test
  void invalid_yaml_in_the_configuration_is_an_error_block() throws IOException {
    PolicyRun.project(dir);
    Files.writeString(dir.resolve("sigil.yaml"), "lints: [unused-let: error\n");

    PolicyRun run = PolicyRun.in(dir, "check");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).startsWith("Error: sigil.yaml isn't valid YAML\n\nWhat you can do\n")
        .contains("\nCaused by\n  • ");
  }

  @Test
  void two_configuration_files_in_one_directory_are_an_error() throws IOException {
    PolicyRun.project(dir);
    Files.writeString(dir.resolve("sigil.yaml"), "lints: {}\n");
    Files.writeString(dir.resolve("sigil.json"), "{}");

    PolicyRun run = PolicyRun.in(dir, "check");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).startsWith("Error: sigil.yaml and sigil.json in . are both configuration files\n");
  }

  @Test
  void a_file_that_cannot_be_read_is_an_error_block_in_every_format() {
    for (String format : new String[] {"text", "json", "yaml"}) {
      PolicyRun run = PolicyRun.in(dir, "check", "-o", format, "missing.sigil");

      assertThat(run.exit()).isEqualTo(1);
      assertThat(run.out()).isEmpty();
      assertThat(run.err()).isEqualTo("""
          Error: missing.sigil couldn't be read

          What you can do
            • check the path: every argument is a file, a directory, or - for stdin, and must be readable

          Caused by
            • missing.sigil: no such file or directory
          """);
    }
  }

  @Test
  void a_dangling_link_the_walk_would_take_is_an_error() throws IOException {
    Files.createSymbolicLink(dir.resolve("gone.sigil"), dir.resolve("nowhere.sigil"));

    PolicyRun run = PolicyRun.in(dir, "check");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).startsWith("Error: gone.sigil couldn't be read\n");
  }

  @Test
  void a_directory_without_policies_is_a_warning_and_nothing_to_check() throws IOException {
    Files.writeString(dir.resolve("README.md"), "no policies here\n");

    PolicyRun text = PolicyRun.in(dir, "check");
    PolicyRun json = PolicyRun.in(dir, "check", "-o", "json");

    assertThat(text.exit()).isZero();
    assertThat(text.out()).isEqualTo("! no .sigil files found, so nothing was checked\n");
    assertThat(json.out()).isEqualTo("[]\n");
  }

  @Test
  void an_unknown_flag_is_an_error_block_with_the_usage_hint() {
    PolicyRun run = PolicyRun.in(dir, "check", "--polcy", "x");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).startsWith("Error: Unknown option: '--polcy'\n\nWhat you can do\n")
        .endsWith("  • run policy check --help to see its usage\n");
  }

  @Test
  void an_unknown_output_format_is_refused_with_the_formats() {
    PolicyRun run = PolicyRun.in(dir, "check", "-o", "xml");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).startsWith(
        "Error: Invalid value for option '--output': unsupported output type \"xml\"; use one of: text, json, yaml\n");
  }

  @Test
  void a_pattern_matching_no_policy_fails_with_the_engines_help() throws IOException {
    PolicyRun.project(dir);

    PolicyRun run = PolicyRun.in(dir, "check", "--policy", "payments.*");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).startsWith("Error: no policy matches \"payments.*\"\n\nWhat you can do\n  • the bundle defines: deploy.gate, deploy.lookup\n");
  }

  @Test
  void a_required_policy_from_the_flag_or_the_configuration_must_be_invoked_by_every_root() throws IOException {
    PolicyRun.project(dir);
    PolicyRun flag = PolicyRun.in(dir, "check", "--require", "deploy.lookup", "-o", "json");
    Files.writeString(dir.resolve("sigil.yaml"), "require:\n  - policy: deploy.lookup\n    roots: deploy.gate\n");
    PolicyRun config = PolicyRun.in(dir, "check", "-o", "json");

    assertThat(flag.exit()).isEqualTo(1);
    assertThat(flag.out()).contains("\"message\": \"deploy.gate doesn't invoke deploy.lookup\"");
    assertThat(config.exit()).isEqualTo(1);
    assertThat(config.out()).isEqualTo(flag.out());
  }

  @Test
  void a_trusted_path_that_does_not_exist_is_an_error_at_its_entry() throws IOException {
    PolicyRun.project(dir);
    Files.writeString(dir.resolve("sigil.yaml"), "require:\n  - policy: deploy.lookup\n    trusted: guard\n");

    PolicyRun run = PolicyRun.in(dir, "check");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).startsWith("Error: sigil.yaml:2:5: trusted path guard doesn't exist\n");
  }

  @Test
  void a_kind_file_the_configuration_names_must_exist() throws IOException {
    PolicyRun.project(dir);
    Files.writeString(dir.resolve("sigil.yaml"), "$schema: https://example.com/sigil.json\nkinds: kinds/missing.sigil\n");

    PolicyRun run = PolicyRun.in(dir, "check");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).isEqualTo("""
        Error: sigil.yaml: kind file kinds/missing.sigil couldn't be read

        What you can do
          • fix the path under kinds:; it is relative to the configuration file

        Caused by
          • kinds/missing.sigil: no such file or directory
        """);
  }

  @Test
  void the_recursive_flag_is_accepted_with_a_notice() throws IOException {
    PolicyRun.project(dir);

    PolicyRun run = PolicyRun.in(dir, "check", "-R");

    assertThat(run.exit()).isZero();
    assertThat(run.err()).isEqualTo("-R is deprecated and does nothing: a directory is always read with every level below it\n");
  }
}
