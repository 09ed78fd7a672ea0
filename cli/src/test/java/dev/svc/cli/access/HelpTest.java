package dev.svc.cli.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Help rendered from markdown (§11.9): long by default, short with --long=false, raw with the markdown theme. */
class HelpTest {

  @TempDir Path root;

  @Test
  void help_is_the_long_form_by_default_laid_out_for_the_terminal() throws Exception {
    CliRun.Result result = new CliRun(root).run("login", "--help");

    assertThat(result.code()).isZero();
    assertThat(result.out()).startsWith("""
        Usage

          svc login [flags]

        Aliases

        login, signin, auth

        Description
        """)
        .contains("\nFlags\n\n  Flag                   Type    Usage\n",
            "\n      --shell            bool    Start a signed-in subshell instead, like svc shell (unix).\n",
            "\nGlobal Flags\n\n  Flag           Type    Usage\n",
            "\n  -s, --server   string  The server's node name on the mesh, or its URL (mesh.hostname; default: svc).\n")
        .doesNotContain("```", "| ---", "\033[");
  }

  @Test
  void the_markdown_theme_prints_the_template_as_it_is() throws Exception {
    CliRun.Result result = new CliRun(root).run("signout", "--help", "--theme", "markdown");

    assertThat(result.err()).isEmpty();
    assertThat(result.out()).startsWith("# Usage\n\n```text\nsvc signout [flags]\n```\n\n## Aliases\n\nsignout, logout\n")
        .contains("## Global Flags\n\n| Flag | Type | Usage |\n| --- | --- | --- |\n| `-c, --config` | path |");
  }

  @Test
  void long_false_gives_the_short_form_with_one_flags_table() throws Exception {
    CliRun.Result result = new CliRun(root).run("signout", "--help", "--long=false", "-t", "markdown");

    assertThat(result.out()).isEqualTo(MarkdownHelp.renderShort(new CliRun(root).runtimeCommandLine()
        .getSubcommands().get("signout").getCommandSpec()).stripTrailing() + "\n");
    assertThat(result.out()).doesNotContain("## Global Flags", "## Aliases").contains("| `-s, --server` |", "| `-h, --help` |");
  }

  @Test
  void a_group_lists_its_commands_with_a_tip() throws Exception {
    CliRun cli = new CliRun(root);
    cli.environment.put("SVC_OUTPUT_THEME", "markdown");
    CliRun.Result result = cli.run("get", "--help");

    assertThat(result.out()).startsWith("# Usage\n\n```text\nsvc get [command]\n```\n")
        .contains("| `login` | Show the current session. |", "| `config` |",
            "> [!TIP]\n> Run `svc get <command> --help` for a command's help.");
  }

  @Test
  void every_user_command_has_a_help_template_with_a_description_and_examples() throws Exception {
    CommandLine svc = new CliRun(root).runtimeCommandLine();
    List<String> missing = new ArrayList<>();
    for (Class<?> command : AccessCommands.commands()) {
      collectMissing(svc.getSubcommands().get(command.getAnnotation(Command.class).name()), missing);
    }

    assertThat(missing).isEmpty();
  }

  private static void collectMissing(CommandLine command, List<String> missing) {
    if (command.getSubcommands().isEmpty()) {
      String template = MarkdownHelp.template(command.getCommandSpec());
      if (!template.contains("## Description\n") || !template.contains("## Examples\n")) {
        missing.add(command.getCommandSpec().qualifiedName());
      }
    }
    command.getSubcommands().values().stream().distinct()
        .filter(c -> !c.getCommandSpec().usageMessage().hidden())
        .forEach(child -> collectMissing(child, missing));
  }

  @Test
  void admonitions_become_labelled_lines_on_a_terminal() throws Exception {
    CliRun.Result result = new CliRun(root).run("get", "--help");

    assertThat(result.out()).contains("\nTip: Run svc get <command> --help for a command's help.\n");
  }
}
