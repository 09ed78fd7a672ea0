package dev.svc.cli.access;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code svc completion <shell>} (access-server spec §11.10): picocli's completion script, which
 * bash runs and zsh runs through {@code bashcompinit}. fish and PowerShell are open point O8.
 */
@Command(name = "completion", description = "Print the completion script for bash or zsh.")
final class CompletionCommand extends ClientCommand {

  @Parameters(paramLabel = "<shell>", description = "The shell: bash or zsh.")
  String shell;

  CompletionCommand(ClientRuntime runtime) {
    super(runtime);
  }

  @Override
  int run(ClientContext context) {
    if (!shell.equals("bash") && !shell.equals("zsh")) {
      context.console().note("Unsupported shell: " + shell);
      return USAGE;
    }
    context.console().result(AutoComplete.bash("svc", spec.root().commandLine()).stripTrailing());
    return 0;
  }
}
