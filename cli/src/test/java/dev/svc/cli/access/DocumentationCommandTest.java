package dev.svc.cli.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc generate documentation} (§11.11). */
class DocumentationCommandTest {

  @TempDir Path root;

  @Test
  void the_reference_walks_the_tree_in_pre_order_with_children_alphabetical() throws Exception {
    Path file = root.resolve("cli.md");

    CliRun.Result result = new CliRun(root).run("generate", "documentation", file.toString(), "-q");

    assertThat(result.code()).isZero();
    String doc = Files.readString(file);
    List<String> usages = doc.lines().filter(l -> l.matches("svc.*(\\[flags]|\\[command]).*")).toList();
    assertThat(usages).startsWith("svc [command]", "svc cluster-info [flags]", "svc config [flags] <key> <value>",
        "svc generate [command]", "svc generate integration [flags] <shell>", "svc get [command]",
        "svc get cluster-info [flags]", "svc get config [flags] <key>", "svc get kubeconfig [flags]",
        "svc get login [flags]", "svc kubeconfig [flags]", "svc login [flags]");
    assertThat(doc).doesNotContain("svc completion", "svc generate documentation", "svc help");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r--r--");
  }

  @Test
  void headings_shift_by_depth_with_root_and_first_level_at_two() throws Exception {
    Path file = root.resolve("cli.md");

    new CliRun(root).run("generate", "documentation", file.toString());

    String doc = Files.readString(file);
    assertThat(doc).startsWith("## Usage\n\n```text\nsvc [command]\n```\n");
    assertThat(doc).contains("## Usage\n\n```text\nsvc login [flags]\n```\n\n### Aliases\n",
        "### Usage\n\n```text\nsvc get login [flags]\n```\n\n#### Aliases\n");
  }

  @Test
  void headings_inside_code_fences_stay_as_they_are() {
    assertThat(DocumentationCommand.shiftHeadings("# A\n```sh\n# a comment\n```\n## B", 2))
        .isEqualTo("### A\n```sh\n# a comment\n```\n#### B");
  }

  @Test
  void front_matter_comes_first() throws Exception {
    Path file = root.resolve("cli.md");

    new CliRun(root).run("generate", "documentation", file.toString(), "--front-matter", "--title", "svc CLI");

    assertThat(Files.readString(file)).startsWith("---\ntitle: svc CLI\npermalink: /reference/cli\n---\n\n## Usage\n");
  }

  @Test
  void a_markdownlint_that_cant_run_exits_1() throws Exception {
    if (SvcLauncher.onPath("markdownlint-cli2")) {
      System.out.println("SKIPPED: markdownlint-cli2 is installed, so it can't be missing");
      return;
    }
    Path file = root.resolve("cli.md");

    CliRun.Result result = new CliRun(root).run("generate", "documentation", file.toString(), "-m");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err()).startsWith("✗ couldn't run markdownlint-cli2\n");
  }
}
