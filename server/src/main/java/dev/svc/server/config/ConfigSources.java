package dev.svc.server.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where {@link ConfigLoader} reads the configuration from: the flags the user actually passed, the
 * environment, and the config file (given, or searched for). Passing these in, rather than reading
 * the process's own, lets tests set every source.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param flags the keys set by flags on the command line, with the option as typed
 * @param environment the environment variables
 * @param explicitFile the file {@code --config} names; when given, no other file is read
 * @param searchDirectories where to look for {@code config.yaml} without {@code --config}, in order;
 *     the first found is read and the others are not
 */
public record ConfigSources(
    Map<ConfigKey, Flag> flags,
    Map<String, String> environment,
    Optional<Path> explicitFile,
    List<Path> searchDirectories) {

  /** The name of the file searched for. */
  public static final String FILE_NAME = "config.yaml";

  /**
   * Copies the maps and the list.
   *
   * @param flags the keys set by flags
   * @param environment the environment variables
   * @param explicitFile the file {@code --config} names
   * @param searchDirectories where to look for {@code config.yaml}
   */
  public ConfigSources {
    flags = Map.copyOf(flags);
    environment = Map.copyOf(environment);
    Objects.requireNonNull(explicitFile, "explicitFile");
    searchDirectories = List.copyOf(searchDirectories);
  }

  /**
   * One key's value from the command line.
   *
   * @param option the option as the user typed it, such as {@code --port}, to name in errors
   * @param value the value's text, as for an environment variable
   */
  public record Flag(String option, String value) {

    /**
     * Checks that both parts are given.
     *
     * @param option the option
     * @param value the value's text
     */
    public Flag {
      Objects.requireNonNull(option, "option");
      Objects.requireNonNull(value, "value");
    }
  }

  /**
   * The standard search order (access-server spec §2.2): the working directory, then
   * {@code $HOME/.config/svc/}, then {@code /etc/svc/}.
   *
   * @param workingDirectory the current directory
   * @param home the user's home directory
   * @return the directories to search, in order
   */
  public static List<Path> searchDirectories(Path workingDirectory, Path home) {
    return List.of(workingDirectory, home.resolve(".config").resolve("svc"), Path.of("/etc/svc"));
  }

  /**
   * The sources of this process: {@code flags}, its environment, and the standard search from its
   * working directory and the user's home.
   *
   * @param flags the keys set by flags
   * @param explicitFile the file {@code --config} names
   * @return the sources
   */
  public static ConfigSources ofProcess(Map<ConfigKey, Flag> flags, Optional<Path> explicitFile) {
    return new ConfigSources(
        flags,
        System.getenv(),
        explicitFile,
        searchDirectories(Path.of("").toAbsolutePath(), Path.of(System.getProperty("user.home"))));
  }
}
