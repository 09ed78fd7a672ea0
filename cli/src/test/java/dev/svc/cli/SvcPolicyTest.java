package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code svc policy} is part of the command tree, with its own usage errors, leaving the others' alone. */
class SvcPolicyTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine svc = Svc.commandLine();
    svc.setOut(new PrintWriter(out, true));
    svc.setErr(new PrintWriter(err, true));
    return svc.execute(args);
  }

  @Test
  void svc_policy_version_prints_the_engines_record() {
    assertThat(run("policy", "version", "-o", "json")).isZero();
    assertThat(out.toString()).startsWith("{\n  \"version\": ");
  }

  @Test
  void a_bad_policy_flag_is_the_error_block_with_status_one() {
    assertThat(run("policy", "check", "--nope")).isEqualTo(1);
    assertThat(err.toString()).isEqualTo("""
        Error: Unknown option: '--nope'

        What you can do
          • run svc policy check --help to see its usage
        """);
  }

  @Test
  void svc_policy_alone_asks_for_a_command() {
    assertThat(run("policy")).isEqualTo(1);
    assertThat(err.toString()).startsWith("Error: svc policy needs a command: check, fmt, eval, test, explain or version\n");
  }

  @Test
  void other_commands_keep_picocli_usage_errors() {
    assertThat(run("serve", "--nope")).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(err.toString()).startsWith("Unknown option: '--nope'");
  }

  @Test
  void svc_policy_help_lists_its_commands_and_exit_codes() {
    assertThat(run("policy", "--help")).isZero();
    assertThat(out.toString())
        .contains("check", "fmt", "eval", "test", "explain", "version", "-o, --output=<format>")
        .contains("1   any failure: a bad flag, an unreadable file, an error found");
  }
}
