package dev.svc.cli.access;

import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code svc config [key] [value]} (access-server spec §11.8): shows the configuration, one key, or
 * sets one key.
 */
@Command(name = "config", description = "Show the configuration, one key of it, or set a key.")
final class ConfigCommand extends ClientCommand {

  @Parameters(arity = "0..2", paramLabel = "<key> <value>", description = "A key, and a value to set it to.")
  List<String> arguments = List.of();

  @Option(names = {"-f", "--force"}, description = "Create ~/.config/svc/config.yaml when no config file is in use.")
  boolean force;

  @Option(names = "--filename", description = "Also show the config file in use.")
  boolean filename;

  ConfigCommand(ClientRuntime runtime) {
    super(runtime);
  }

  @Override
  int run(ClientContext context) {
    ConfigView view = new ConfigView(this, context);
    return switch (arguments.size()) {
      case 0 -> view.showAll(filename);
      case 1 -> view.show(arguments.get(0), filename);
      default -> view.set(arguments.get(0), arguments.get(1), force);
    };
  }
}
