package dev.svc.cli;

import dev.svc.cli.access.AccessCommands;
import dev.svc.cli.access.ClientRuntime;
import dev.svc.cli.policy.PolicyCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code svc} command line: the root of the command tree. */
@Command(
    name = "svc",
    mixinStandardHelpOptions = true,
    versionProvider = VersionCommand.Provider.class,
    description = "Cluster access and policy engine.",
    subcommands = {VersionCommand.class, ServeCommand.class, PolicyCommand.class})
public final class Svc {

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command tree; tests run commands through it without exiting the JVM. */
  static CommandLine commandLine() {
    return commandLine(ClientRuntime.ofProcess());
  }

  /**
   * The command tree whose user commands run with {@code runtime}.
   *
   * @param runtime the environment, clock and terminal of the user commands
   * @return the command line
   */
  public static CommandLine commandLine(ClientRuntime runtime) {
    CommandLine commandLine = new CommandLine(new Svc(), AccessCommands.factory(runtime));
    AccessCommands.register(commandLine, runtime);
    return PolicyCommand.install(commandLine);
  }
}
