package dev.svc.cli.access;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code svc completion <shell>} (access-server spec §11.10): picocli's completion script, which
 * bash runs and zsh runs through {@code bashcompinit}, and one of our own for fish (O8). PowerShell
 * has none yet.
 */
@Command(name = "completion", description = "Print the completion script for bash, zsh or fish.")
final class CompletionCommand extends ClientCommand {

  @Parameters(paramLabel = "<shell>", description = "The shell: bash, zsh or fish.")
  String shell;

  CompletionCommand(ClientRuntime runtime) {
    super(runtime);
  }

  @Override
  int run(ClientContext context) {
    switch (shell) {
      case "bash", "zsh" -> context.console().result(AutoComplete.bash("svc", spec.root().commandLine()).stripTrailing());
      case "fish" -> context.console().result(FishCompletion.script(spec.root()).stripTrailing());
      default -> {
        context.console().note("Unsupported shell: " + shell);
        return USAGE;
      }
    }
    return 0;
  }
}
