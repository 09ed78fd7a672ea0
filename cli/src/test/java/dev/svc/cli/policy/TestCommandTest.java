package dev.svc.cli.policy;

import static dev.svc.cli.policy.PolicyRun.assertGolden;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestCommandTest {

  @TempDir Path dir;

  @Test
  void a_failing_case_prints_in_every_format_and_fails() {
    PolicyRun.project(dir);

    PolicyRun text = PolicyRun.in(dir, "test");
    PolicyRun verbose = PolicyRun.in(dir, "test", "-v", "--color", "always");
    PolicyRun json = PolicyRun.in(dir, "test", "-o", "json");
    PolicyRun yaml = PolicyRun.in(dir, "test", "-o", "yaml");

    assertGolden("test_failing.golden", text.out());
    assertGolden("test_failing_verbose_color.golden", verbose.out());
    assertGolden("test_failing_json.golden", json.out());
    assertGolden("test_failing_yaml.golden", yaml.out());
    assertThat(text.exit()).isEqualTo(1);
    assertThat(json.exit()).isEqualTo(1);
    assertThat(yaml.exit()).isEqualTo(1);
  }

  @Test
  void run_selects_cases_by_name_and_passing_cases_exit_zero() {
    PolicyRun.project(dir);

    PolicyRun run = PolicyRun.in(dir, "test", "--run", "ops|gold");

    assertThat(run.exit()).isZero();
    assertThat(run.out()).isEqualTo("ok    deploy/gate_test.yaml  2 cases\n✓ 2 cases passed in 1 file\n");
  }

  @Test
  void a_test_file_that_cannot_run_is_reported_with_its_problem() throws IOException {
    PolicyRun.project(dir);
    Files.writeString(dir.resolve("deploy/gate_test.yaml"), "policy: deploy.nothing\ncases: []\n");

    PolicyRun run = PolicyRun.in(dir, "test");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out()).isEqualTo("""
        FAIL  deploy/gate_test.yaml
            error: bundle has no policy deploy.nothing
              = help: the bundle defines: deploy.gate, deploy.lookup
        ✗ 1 of 1 test file couldn't run
        """);
  }

  @Test
  void a_bad_run_pattern_is_an_error_block() {
    PolicyRun.project(dir);

    PolicyRun run = PolicyRun.in(dir, "test", "--run", "(");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).startsWith("Error: ");
  }

  @Test
  void paths_without_test_files_are_an_error() throws IOException {
    PolicyRun.project(dir);
    Files.delete(dir.resolve("deploy/gate_test.yaml"));

    PolicyRun run = PolicyRun.in(dir, "test", "-o", "json");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo("""
        Error: no test files found

        What you can do
          • a test file's name ends in _test.yaml or _test.yml; name it, or a directory that holds it
        """);
  }
}
