package dev.svc.cli.access;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc set config <key> <value>}: writes one key into the config file (access-server spec §11.8). */
@Command(name = "config", description = "Set one key in the config file, keeping the others.")
final class SetConfigCommand extends ClientCommand {

  @Parameters(index = "0", paramLabel = "<key>", description = "The key, such as mesh.hostname.")
  String key;

  @Parameters(index = "1", paramLabel = "<value>", description = "Its value; true/false and integers are written as such.")
  String value;

  @Option(names = {"-f", "--force"}, description = "Create ~/.config/svc/config.yaml when no config file is in use.")
  boolean force;

  SetConfigCommand(ClientRuntime runtime) {
    super(runtime);
  }

  @Override
  int run(ClientContext context) {
    return new ConfigView(this, context).set(key, value, force);
  }
}
