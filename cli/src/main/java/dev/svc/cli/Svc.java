package dev.svc.cli;

import dev.svc.cli.access.AccessCommands;
import dev.svc.cli.access.ClientRuntime;
import dev.svc.cli.access.GlobalFlags;
import dev.svc.cli.policy.PolicyCommand;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code svc} command line: the root of the command tree.
 *
 * <p>Picocli builds a command's model by reflecting over its classes, which costs most of a short
 * command's start-up. So {@link #main} builds only the top-level command its first argument names:
 * what picocli parses, runs and prints for those arguments is then the same as with the whole tree,
 * which is built when the first argument names no command (root help, an unknown command) or names
 * one that reads the tree.
 */
@Command(
    name = "svc",
    mixinStandardHelpOptions = true,
    versionProvider = VersionCommand.Provider.class,
    description = "Cluster access and policy engine.")
public final class Svc {

  /** The top-level commands in the order help lists them: svc's own, then the user commands. */
  private static final List<Class<?>> COMMANDS = Stream.concat(
      Stream.of(VersionCommand.class, ServeCommand.class, PolicyCommand.class),
      AccessCommands.commands().stream()).toList();

  /** Top-level commands that read the whole tree: completion scripts, the command reference. */
  private static final Set<String> READ_THE_TREE = Set.of("completion", "generate");

  public static void main(String[] args) {
    String[] ordered = GlobalFlags.afterCommand(args);
    System.exit(commandLine(ClientRuntime.ofProcess(), ordered).execute(ordered));
  }

  /** The whole command tree; tests run commands through it without exiting the JVM. */
  static CommandLine commandLine() {
    return commandLine(ClientRuntime.ofProcess());
  }

  /**
   * The whole command tree, whose user commands run with {@code runtime}.
   *
   * @param runtime the environment, clock and terminal of the user commands
   * @return the command line
   */
  public static CommandLine commandLine(ClientRuntime runtime) {
    return tree(runtime, command -> true);
  }

  /**
   * The command line that runs {@code args}: the root with only the top-level command {@code
   * args[0]} names, by name or alias, unless that command reads the whole tree; else the whole tree.
   *
   * @param runtime the environment, clock and terminal of the user commands
   * @param args the arguments the command line will run
   * @return the command line
   */
  public static CommandLine commandLine(ClientRuntime runtime, String... args) {
    return named(args)
        .filter(command -> !READ_THE_TREE.contains(annotation(command).name()))
        .map(command -> tree(runtime, command::equals))
        .orElseGet(() -> commandLine(runtime));
  }

  private static CommandLine tree(ClientRuntime runtime, Predicate<Class<?>> wanted) {
    CommandLine.IFactory factory = AccessCommands.factory(runtime);
    CommandLine root = new CommandLine(new Svc(), factory);
    for (Class<?> command : COMMANDS) {
      if (wanted.test(command)) {
        // Built on its own, as picocli builds a root: that applies its model transformer (serve's flags).
        root.addSubcommand(new CommandLine(command, factory));
      }
    }
    AccessCommands.markdownHelp(root, runtime);
    return PolicyCommand.install(root);
  }

  /** The top-level command {@code args[0]} is the name or an alias of. */
  private static Optional<Class<?>> named(String[] args) {
    if (args.length == 0) {
      return Optional.empty();
    }
    return COMMANDS.stream().filter(command -> names(annotation(command)).anyMatch(args[0]::equals)).findFirst();
  }

  private static Stream<String> names(Command command) {
    return Stream.concat(Stream.of(command.name()), Stream.of(command.aliases()));
  }

  private static Command annotation(Class<?> command) {
    return command.getAnnotation(Command.class);
  }
}
