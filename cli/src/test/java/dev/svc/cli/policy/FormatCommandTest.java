package dev.svc.cli.policy;

import static dev.svc.cli.policy.PolicyRun.assertGolden;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FormatCommandTest {

  private static final String UNFORMATTED = "policy deploy.loose: Access@1\nwhen  hour>1 {deny(reason: night)}\n";
  private static final String FORMATTED = "policy deploy.loose: Access@1\n\nwhen hour > 1 { deny(reason: night) }\n";

  @TempDir Path dir;

  @BeforeEach
  void project() throws IOException {
    PolicyRun.project(dir);
    Files.writeString(dir.resolve("deploy/loose.sigil"), UNFORMATTED);
  }

  @Test
  void one_file_prints_its_formatted_source() {
    PolicyRun text = PolicyRun.in(dir, "fmt", "deploy/loose.sigil");
    PolicyRun json = PolicyRun.in(dir, "fmt", "-o", "json", "deploy/loose.sigil");

    assertThat(text.exit()).isZero();
    assertThat(text.out()).isEqualTo(FORMATTED);
    assertThat(json.out()).isEqualTo("""
        [
          {
            "file": "deploy/loose.sigil",
            "formatted": false,
            "source": "policy deploy.loose: Access@1\\n\\nwhen hour \\u003e 1 { deny(reason: night) }\\n"
          }
        ]
        """);
  }

  @Test
  void stdin_is_formatted_as_stdin() {
    PolicyRun run = PolicyRun.withStdin(dir, UNFORMATTED, "fmt", "-", "-o", "yaml");

    assertThat(run.exit()).isZero();
    assertThat(run.out()).isEqualTo("""
        - file: <stdin>
          formatted: false
          source: |
            policy deploy.loose: Access@1

            when hour > 1 { deny(reason: night) }
        """);
  }

  @Test
  void a_directory_prints_a_diff_of_each_file_that_would_change() {
    PolicyRun run = PolicyRun.in(dir, "fmt");

    assertThat(run.exit()).isZero();
    assertGolden("fmt_diff.golden", run.out());
    assertGolden("fmt_diff_json.golden", PolicyRun.in(dir, "fmt", "-o", "json").out());
    assertGolden("fmt_diff_yaml.golden", PolicyRun.in(dir, "fmt", "-o", "yaml").out());
  }

  @Test
  void check_lists_the_unformatted_files_and_fails() {
    PolicyRun text = PolicyRun.in(dir, "fmt", "--check");
    PolicyRun json = PolicyRun.in(dir, "fmt", "--check", "-o", "json");

    assertThat(text.exit()).isEqualTo(1);
    assertThat(text.out()).isEqualTo("deploy/loose.sigil\n✗ checked 4 files, 1 not formatted\n");
    assertThat(json.exit()).isEqualTo(1);
    assertGolden("fmt_check_json.golden", json.out());
  }

  @Test
  void write_rewrites_changed_files_and_keeps_their_permissions() throws IOException {
    Path loose = dir.resolve("deploy/loose.sigil");
    Files.setPosixFilePermissions(loose, PosixFilePermissions.fromString("rw-r-----"));

    PolicyRun run = PolicyRun.in(dir, "fmt", "--write");

    assertThat(run.exit()).isZero();
    assertThat(run.out()).isEqualTo("rewrote deploy/loose.sigil\n✓ formatted 4 files, rewrote 1\n");
    assertThat(Files.readString(loose)).isEqualTo(FORMATTED);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(loose))).isEqualTo("rw-r-----");
    assertThat(PolicyRun.in(dir, "fmt", "--check").exit()).isZero();
  }

  @Test
  void a_file_that_does_not_parse_is_left_alone_and_fails_every_mode() throws IOException {
    Path broken = dir.resolve("deploy/broken.sigil");
    Files.writeString(broken, "policy deploy.broken: Access@1\nwhen {\n");

    PolicyRun write = PolicyRun.in(dir, "fmt", "--write", "deploy/broken.sigil");
    PolicyRun json = PolicyRun.in(dir, "fmt", "-o", "json", "deploy/broken.sigil");

    assertThat(write.exit()).isEqualTo(1);
    assertThat(write.err()).startsWith("deploy/broken.sigil:3:1: error: ");
    assertThat(Files.readString(broken)).isEqualTo("policy deploy.broken: Access@1\nwhen {\n");
    assertThat(json.exit()).isEqualTo(1);
    assertThat(json.out()).startsWith("[\n  {\n    \"file\": \"deploy/broken.sigil\",\n    \"formatted\": false,\n"
        + "    \"diagnostics\": [\n      {\n        \"severity\": \"error\",\n");
  }

  @Test
  void modes_do_not_combine_and_stdin_cannot_be_written() {
    PolicyRun both = PolicyRun.in(dir, "fmt", "--check", "--write");
    PolicyRun stdin = PolicyRun.in(dir, "fmt", "--write", "-");

    assertThat(both.exit()).isEqualTo(1);
    assertThat(both.err()).startsWith("Error: --write, --check and --diff can't be combined\n");
    assertThat(stdin.exit()).isEqualTo(1);
    assertThat(stdin.err()).startsWith("Error: --write can't rewrite stdin\n");
  }
}
