package dev.svc.cli.access;

import picocli.CommandLine.Command;

/** {@code svc shell}: a signed-in subshell that signs out when it ends (access-server spec §11.5). */
@Command(name = "shell", description = "Start a signed-in subshell; leaving it signs out (unix).")
final class ShellCommand extends ClientCommand {

  ShellCommand(ClientRuntime runtime) {
    super(runtime);
  }

  @Override
  int run(ClientContext context) {
    return new Subshell(context).run();
  }
}
