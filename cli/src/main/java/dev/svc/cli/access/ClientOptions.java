package dev.svc.cli.access;

import dev.svc.cli.ConfigFileOption;
import dev.svc.cli.console.Theme;
import dev.svc.server.config.ConfigKey;
import dev.svc.server.config.ConfigSources;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The global flags of every user command (access-server spec §11.2). Each flag the user passed sets
 * its configuration key and wins over the environment and the config file (§2.1); a flag not passed
 * stays null and leaves the key to them.
 */
public final class ClientOptions {

  /** Completion candidates of {@code --theme}. */
  static final class ThemeNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Theme.names().iterator();
    }
  }

  @Mixin ConfigFileOption configFile;

  @Option(names = "--debug", arity = "0..1", fallbackValue = "true", paramLabel = "<bool>",
      description = "Trace every request and answer to stderr (debug).")
  Boolean debug;

  @Option(names = {"-s", "--server"}, paramLabel = "<hostname>",
      description = "The server's node name on the mesh, or its URL (mesh.hostname; default: svc).")
  String server;

  @Option(names = {"-p", "--port"}, paramLabel = "<port>",
      description = "The server's port; 443 means HTTPS (mesh.port; default: 443).")
  String port;

  @Option(names = {"-l", "--long"}, arity = "0..1", fallbackValue = "true", paramLabel = "<bool>",
      description = "Show the long help; the shell wrapper doesn't evaluate the output (output.long; default: true).")
  Boolean longHelp;

  @Option(names = {"-q", "--quiet"}, arity = "0..1", fallbackValue = "true", paramLabel = "<bool>",
      description = "Print machine output only (output.quiet).")
  Boolean quiet;

  @Option(names = {"-t", "--theme"}, paramLabel = "<theme>", completionCandidates = ThemeNames.class,
      description = "Colour theme: ${COMPLETION-CANDIDATES} (output.theme; default: tokyo-night).")
  String theme;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help; --long shows every section.")
  boolean help;

  @Option(names = {"-e", "--no-eval"},
      description = "Tell the shell wrapper not to evaluate the output; the command itself ignores it.")
  boolean noEval;

  /**
   * The config file {@code --config} names.
   *
   * @return the file, if given
   */
  Optional<Path> configFile() {
    return configFile.file();
  }

  /**
   * The theme {@code --theme} names, as typed.
   *
   * @return the name, if given
   */
  Optional<String> theme() {
    return Optional.ofNullable(theme);
  }

  /**
   * The keys the passed flags set, each with its option.
   *
   * @return the flags, for {@link ConfigSources}
   */
  Map<ConfigKey, ConfigSources.Flag> flags() {
    Map<ConfigKey, ConfigSources.Flag> flags = new EnumMap<>(ConfigKey.class);
    put(flags, ConfigKey.DEBUG, "--debug", debug);
    put(flags, ConfigKey.MESH_HOSTNAME, "--server", server);
    put(flags, ConfigKey.MESH_PORT, "--port", port);
    put(flags, ConfigKey.OUTPUT_LONG, "--long", longHelp);
    put(flags, ConfigKey.OUTPUT_QUIET, "--quiet", quiet);
    put(flags, ConfigKey.OUTPUT_THEME, "--theme", theme);
    return flags;
  }

  private static void put(Map<ConfigKey, ConfigSources.Flag> flags, ConfigKey key, String option, Object value) {
    if (value != null) {
      flags.put(key, new ConfigSources.Flag(option, value.toString()));
    }
  }
}
