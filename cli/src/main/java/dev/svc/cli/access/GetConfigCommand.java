package dev.svc.cli.access;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc get config [key]}: the configuration or one key of it (access-server spec §11.8). */
@Command(name = "config", description = "Show the configuration, or one key of it.")
final class GetConfigCommand extends ClientCommand {

  @Parameters(arity = "0..1", paramLabel = "<key>", description = "A key, such as mesh.hostname.")
  String key;

  @Option(names = "--filename", description = "Also show the config file in use.")
  boolean filename;

  GetConfigCommand(ClientRuntime runtime) {
    super(runtime);
  }

  @Override
  int run(ClientContext context) {
    ConfigView view = new ConfigView(this, context);
    return key == null ? view.showAll(filename) : view.show(key, filename);
  }
}
