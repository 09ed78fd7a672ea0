package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code svc policy} is part of the command tree, with its own usage errors, leaving the others' alone. */
class SvcPolicyTest {

  private static CapturedRun run(String... args) {
    return CapturedRun.ofSvc(args);
  }

  @Test
  void svc_policy_version_prints_the_engines_record() {
    CapturedRun run = run("policy", "version", "-o", "json");
    assertThat(run.exit()).isZero();
    assertThat(run.out()).startsWith("{\n  \"version\": ");
  }

  @Test
  void a_bad_policy_flag_is_the_error_block_with_status_one() {
    CapturedRun run = run("policy", "check", "--nope");
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).isEqualTo("""
        Error: Unknown option: '--nope'

        What you can do
          • run svc policy check --help to see its usage
        """);
  }

  @Test
  void svc_policy_alone_asks_for_a_command() {
    CapturedRun run = run("policy");
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).startsWith("Error: svc policy needs a command: check, fmt, eval, test, explain or version\n");
  }

  @Test
  void other_commands_keep_picocli_usage_errors() {
    CapturedRun run = run("serve", "--nope");
    assertThat(run.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(run.err()).startsWith("Unknown option: '--nope'");
  }

  @Test
  void svc_policy_help_lists_its_commands_and_exit_codes() {
    CapturedRun run = run("policy", "--help");
    assertThat(run.exit()).isZero();
    assertThat(run.out())
        .contains("check", "fmt", "eval", "test", "explain", "version", "-o, --output=<format>")
        .contains("1   any failure: a bad flag, an unreadable file, an error found");
  }
}
