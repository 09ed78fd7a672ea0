package dev.svc.cli.policy;

import static dev.svc.cli.policy.PolicyRun.assertGolden;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExplainCommandTest {

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"04-change-asserts", "05-deploy-composition"})
  void the_spec_examples_print_their_expected_explanation_byte_for_byte(String scenario) throws IOException {
    Path at = PolicyRun.scenario(scenario);
    String expected = Files.readString(at.resolve("expected/explain.json"));
    String policy = expected.replaceAll("(?s).*?\"policy\": \"([^\"]+)\".*", "$1");

    PolicyRun run = PolicyRun.in(at, "explain", "-o", "json", "--policy", policy, ".");

    assertThat(run.exit()).isZero();
    assertThat(run.out()).isEqualTo(expected);
  }

  @Test
  void explanations_print_as_text_and_yaml() {
    Path at = PolicyRun.scenario("05-deploy-composition");

    assertGolden("explain_deploy.golden", PolicyRun.in(at, "explain", "--policy", "payments.deploy").out());
    assertGolden("explain_deploy_yaml.golden", PolicyRun.in(at, "explain", "--policy", "payments.deploy", "-o", "yaml").out());
    assertGolden("explain_deploy_color.golden",
        PolicyRun.in(at, "explain", "--policy", "payments.deploy", "--color", "always").out());
  }

  @Test
  void without_a_policy_every_policy_is_explained() throws IOException {
    PolicyRun.project(dir);

    PolicyRun run = PolicyRun.in(dir, "explain");

    assertThat(run.exit()).isZero();
    assertThat(run.out()).contains("deploy.gate: 3 rules from 1 policy and 0 modules\n",
        "deploy.lookup: 1 rule from 1 policy and 0 modules\n");
  }

  @Test
  void a_pattern_matching_nothing_is_an_error() throws IOException {
    PolicyRun.project(dir);

    PolicyRun run = PolicyRun.in(dir, "explain", "--policy", "nothing.*", "-o", "json");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).startsWith("Error: ");
  }
}
