package dev.svc.cli.access;

import dev.svc.cli.console.Console;
import dev.svc.client.ClientException;
import dev.svc.client.Problem;
import dev.svc.server.config.ConfigKey;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The three forms of {@code svc config} (access-server spec §11.8), shared by {@code config},
 * {@code get config} and {@code set config}: show everything, show one key, set one key.
 */
final class ConfigView {

  private final ClientCommand command;
  private final ClientContext context;
  private final Console console;
  private final ConfigSettings settings;

  ConfigView(ClientCommand command, ClientContext context) {
    this.command = command;
    this.context = context;
    this.console = context.console();
    this.settings = ConfigSettings.of(command, context.configFile());
  }

  /** Everything: the file used with {@code --filename}, then the effective configuration as YAML. */
  int showAll(boolean filename) {
    if (filename) {
      String path = settings.file().map(Path::toString).orElse("none");
      if (context.quiet()) {
        console.result(path);
        return 0;
      }
      console.info("Config file used: " + path);
    }
    if (!context.quiet()) {
      console.result("");
      console.result(settings.effectiveYaml().stripTrailing());
    }
    return 0;
  }

  /** One key: {@code → key: value}, or the bare value when quiet; a note when unset. */
  int show(String name, boolean filename) {
    if (filename && context.quiet()) {
      console.problem(Problem.of("Invalid: cannot combine --filename and --quiet when also specifying a [key]",
          "leave out --quiet to see the file and the value, or --filename to get the bare value"));
      return ClientCommand.USAGE;
    }
    Optional<ConfigKey> key = ConfigKey.byName(name);
    Optional<String> value = key.flatMap(settings::value);
    if (value.isEmpty()) {
      if (!context.quiet()) {
        console.info("Configuration key not set: " + name);
      }
      return 0;
    }
    if (context.quiet()) {
      console.result(value.get());
      return 0;
    }
    console.next(key.get().key() + ": " + value.get());
    if (filename) {
      console.result("  Config file used: " + settings.file().map(Path::toString).orElse("none"));
    }
    return 0;
  }

  /** Sets one key in the config file, keeping the others. */
  int set(String name, String value, boolean force) {
    ConfigKey key = ConfigKey.byName(name).orElse(null);
    if (key == null) {
      console.problem(Problem.of("unknown configuration key: " + name, "run `svc config` to see every key"));
      return ClientCommand.USAGE;
    }
    settings.write(key, value, force);
    if (!context.quiet()) {
      console.ok("Configuration updated");
      console.result("  " + key.key() + " = " + value);
    }
    return 0;
  }

}
