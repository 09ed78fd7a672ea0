package dev.svc.cli;

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
    return PolicyCommand.install(new CommandLine(new Svc()));
  }
}
