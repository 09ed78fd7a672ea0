package dev.svc.cli.access;

import dev.svc.cli.console.Console;
import dev.svc.cli.console.Terminal;
import dev.svc.cli.console.Theme;
import dev.svc.client.AccessClient;
import dev.svc.client.ClientException;
import dev.svc.client.Problem;
import dev.svc.client.ServerAddress;
import dev.svc.server.config.ConfigException;
import dev.svc.server.config.ConfigKey;
import dev.svc.server.config.ConfigLoader;
import dev.svc.server.config.ConfigProblem;
import dev.svc.server.config.ConfigSources;
import dev.svc.server.config.SvcConfig;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The frame of every user command: validates the theme (§11.1), reads the configuration with the
 * global flags (§2), builds the console and the client, runs the command, and turns a failure into
 * the error block on stderr and exit code 1 (§11.12).
 */
abstract class ClientCommand implements Callable<Integer> {

  /** The operation failed (§11.12). */
  static final int FAILED = CommandLine.ExitCode.SOFTWARE;
  /** A usage error, an unreadable configuration (§11.12). */
  static final int USAGE = CommandLine.ExitCode.USAGE;

  @Spec CommandSpec spec;

  @Mixin ClientOptions options;

  final ClientRuntime runtime;

  ClientCommand(ClientRuntime runtime) {
    this.runtime = runtime;
  }

  @Override
  public final Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Console plain = new Console(out, err, Theme.NOTTY, false, false);
    Optional<String> badTheme = options.theme()
        .or(() -> Optional.ofNullable(runtime.environment().get(ConfigKey.OUTPUT_THEME.environmentVariable())))
        .filter(name -> !name.isEmpty() && Theme.byName(name).isEmpty());
    if (badTheme.isPresent()) {
      plain.problem(Problem.of("invalid theme: " + badTheme.get(), Theme.advice()));
      return FAILED;
    }
    SvcConfig config;
    try {
      config = ConfigLoader.loadForClient(sources());
    } catch (ConfigException e) {
      List<ConfigProblem> problems = e.problems();
      plain.problem(new Problem("error reading config file",
          problems.stream().map(ConfigProblem::help).distinct().toList(),
          problems.stream().map(p -> p.render().lines().findFirst().orElse("")).toList()));
      return USAGE;
    }
    Terminal terminal = Terminal.of(runtime.stdoutTty(), runtime.environment());
    Theme theme = terminal.effective(Theme.byName(config.output().theme()).orElse(Theme.NOTTY));
    Console console = new Console(out, err, theme, terminal.colour(theme), runtime.stdoutTty() && theme != Theme.NOTTY);
    ServerAddress address = new ServerAddress(config.mesh().hostname(), config.mesh().tailnet(), config.mesh().port());
    AccessClient client = new AccessClient(address, runtime.httpTimeout(),
        config.debug() ? Optional.of(err) : Optional.empty(), runtime.clock());
    ClientContext context = new ClientContext(config, usedConfigFile(), runtime, console, client);
    try {
      return run(context);
    } catch (ClientException e) {
      console.problem(e.problem());
      return FAILED;
    }
  }

  /**
   * Runs the command.
   *
   * @param context the configuration, console and client
   * @return the exit code
   * @throws ClientException when the operation fails; shown as the error block, exit 1
   */
  abstract int run(ClientContext context);

  ConfigSources sources() {
    return new ConfigSources(options.flags(), runtime.environment(), options.configFile(), searchDirectories());
  }

  List<Path> searchDirectories() {
    return ConfigSources.searchDirectories(runtime.workingDirectory(), runtime.home());
  }

  /** The file the configuration was read from: {@code --config}'s, else the first found (§2.2). */
  Optional<Path> usedConfigFile() {
    return options.configFile().or(() -> searchDirectories().stream()
        .map(dir -> dir.resolve(ConfigSources.FILE_NAME))
        .filter(Files::isRegularFile)
        .findFirst());
  }
}
