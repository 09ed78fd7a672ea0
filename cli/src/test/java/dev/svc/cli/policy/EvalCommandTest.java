package dev.svc.cli.policy;

import static dev.svc.cli.policy.PolicyRun.assertGolden;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EvalCommandTest {

  @TempDir Path dir;

  static Stream<Arguments> every_spec_example_prints_its_expected_record_byte_for_byte() throws IOException {
    Path policies = PolicyRun.examples().resolve("policies");
    List<Arguments> cases = new java.util.ArrayList<>();
    try (Stream<Path> scenarios = Files.list(policies)) {
      for (Path scenario : scenarios.filter(Files::isDirectory).sorted().toList()) {
        try (Stream<Path> expected = Files.list(scenario.resolve("expected"))) {
          for (Path file : expected.sorted().toList()) {
            String name = file.getFileName().toString();
            if (!name.equals("explain.json")) {
              cases.add(Arguments.of(scenario.getFileName().toString(), name));
            }
          }
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource
  void every_spec_example_prints_its_expected_record_byte_for_byte(String scenario, String input) throws IOException {
    Path at = PolicyRun.scenario(scenario);
    String expected = Files.readString(at.resolve("expected").resolve(input));
    String policy = expected.replaceAll("(?s).*?\\n  \"policy\": \"([^\"]+)\".*", "$1");

    PolicyRun run = PolicyRun.in(at, "eval", "-o", "json", "--policy", policy, "--input", "inputs/" + input, ".");

    assertThat(run.out()).isEqualTo(expected);
    assertThat(run.exit()).isEqualTo(expected.contains("\n  \"error\": {") ? 1 : 0);
    assertThat(run.err()).isEmpty();
  }

  @Test
  void the_record_prints_as_text_yaml_and_coloured_text() {
    Path at = PolicyRun.scenario("01-refund-gate");
    String[] args = {"eval", "--input", "inputs/small-goodwill.json", "."};

    assertGolden("eval_small_goodwill.golden", PolicyRun.in(at, args).out());
    assertGolden("eval_small_goodwill_color.golden", PolicyRun.in(at, concat(args, "--color", "always")).out());
    assertGolden("eval_small_goodwill_yaml.golden", PolicyRun.in(at, concat(args, "-o", "yaml")).out());
  }

  @Test
  void a_failed_evaluation_prints_its_failure_and_exits_one() {
    PolicyRun run = PolicyRun.in(PolicyRun.scenario("01-refund-gate"), "eval", "--input", "inputs/large-phone.json", ".");

    assertThat(run.exit()).isEqualTo(1);
    assertGolden("eval_large_phone.golden", run.out());
  }

  @Test
  void the_input_comes_from_stdin_as_yaml_too() throws IOException {
    PolicyRun.project(dir);

    PolicyRun run = PolicyRun.withStdin(dir, "user: {name: ada, teams: [ops], tier: silver}\nhour: 10\n",
        "eval", "--policy", "deploy.gate");

    assertThat(run.exit()).isZero();
    assertThat(run.out()).startsWith("deploy.gate: allow(reason: member)\n  minutes = 30\n");
  }

  @Test
  void stubs_answer_host_functions_from_a_file_and_from_flags() throws IOException {
    PolicyRun.project(dir);
    Files.writeString(dir.resolve("stubs.yaml"), """
        directory:
          calls:
            - args: ["<gold>"]
              returns: [admins]
          returns: []
        """);

    PolicyRun fromFile = PolicyRun.in(dir, "eval", "--policy", "deploy.lookup", "--stubs", "stubs.yaml",
        "--input", "deploy/gold.json");
    PolicyRun flagWins = PolicyRun.in(dir, "eval", "--policy", "deploy.lookup", "--stubs", "stubs.yaml",
        "--stub", "directory=[]", "--input", "deploy/gold.json");

    assertThat(fromFile.exit()).isZero();
    assertThat(fromFile.out()).startsWith("deploy.lookup: allow(reason: member)\n");
    assertThat(flagWins.exit()).isZero();
    assertThat(flagWins.out()).startsWith("deploy.lookup: deny(reason: outsider)\n");
  }

  @Test
  void an_unstubbed_host_function_fails_the_evaluation() throws IOException {
    PolicyRun.project(dir);

    PolicyRun run = PolicyRun.in(dir, "eval", "--policy", "deploy.lookup", "--input", "deploy/gold.json", "-o", "json");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out()).contains("\"kind\": \"runtime\"", "host function directory failed");
  }

  @Test
  void a_stub_with_an_unknown_key_names_the_nearest() throws IOException {
    PolicyRun.project(dir);
    Files.writeString(dir.resolve("stubs.yaml"), "directory:\n  retuns: []\n");

    PolicyRun run = PolicyRun.in(dir, "eval", "--policy", "deploy.lookup", "--stubs", "stubs.yaml",
        "--input", "deploy/gold.json");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).isEqualTo("""
        Error: stubs.yaml: stub directory: unknown key "retuns"

        What you can do
          • did you mean "returns"?
          • a stub takes returns, error, calls
        """);
  }

  @Test
  void an_input_that_does_not_decode_names_the_file_and_the_field() throws IOException {
    PolicyRun.project(dir);
    Files.writeString(dir.resolve("typo.json"), "{\"user\": {\"nmae\": \"x\"}}");

    PolicyRun run = PolicyRun.in(dir, "eval", "--policy", "deploy.gate", "--input", "typo.json", "-o", "json");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo("""
        Error: typo.json: user.nmae: unknown field "nmae" on type User

        What you can do
          • did you mean "name"? declared: name, teams, tier
          • the input is a JSON or YAML object with one key per input the kind declares
        """);
  }

  @Test
  void json_numbers_reach_the_engine_as_written() throws IOException {
    PolicyRun.project(dir);
    Files.writeString(dir.resolve("float.json"), "{\"hour\": 12.0}");

    PolicyRun run = PolicyRun.in(dir, "eval", "--policy", "deploy.gate", "--input", "float.json");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).startsWith("Error: float.json: hour: expected an int, found a number\n");
  }

  @Test
  void empty_and_broken_inputs_are_error_blocks() throws IOException {
    PolicyRun.project(dir);
    Files.writeString(dir.resolve("broken.json"), "{\"user\": [}");

    PolicyRun empty = PolicyRun.in(dir, "eval", "--policy", "deploy.gate");
    PolicyRun broken = PolicyRun.in(dir, "eval", "--policy", "deploy.gate", "--input", "broken.json");

    assertThat(empty.exit()).isEqualTo(1);
    assertThat(empty.err()).startsWith("Error: <stdin> is empty\n");
    assertThat(broken.exit()).isEqualTo(1);
    assertThat(broken.err()).startsWith("Error: broken.json isn't valid JSON or YAML\n").contains("Caused by");
  }

  @Test
  void a_bundle_that_does_not_check_prints_the_diagnostics_then_the_error() throws IOException {
    PolicyRun.project(dir);
    Path gate = dir.resolve("deploy/gate.sigil");
    Files.writeString(gate, Files.readString(gate).replace("hour < 6", "hour < \"6\""));

    PolicyRun run = PolicyRun.in(dir, "eval", "--policy", "deploy.gate", "--input", "deploy/gold.json");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertGolden("eval_does_not_check.golden", run.err());
  }

  @Test
  void a_directory_without_policies_is_an_error() {
    PolicyRun run = PolicyRun.in(dir, "eval", "--input", "x.json");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).startsWith("Error: no .sigil files found\n");
  }

  private static String[] concat(String[] args, String... more) {
    return Stream.concat(Stream.of(args), Stream.of(more)).toArray(String[]::new);
  }
}
