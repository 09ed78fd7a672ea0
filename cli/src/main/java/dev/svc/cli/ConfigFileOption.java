package dev.svc.cli;

import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code -c/--config}, the config file option {@code svc serve} and the user commands share (a picocli
 * mixin): the file named instead of searching the usual directories for {@code config.yaml}.
 */
public final class ConfigFileOption {

  @Option(names = {"-c", "--config"}, paramLabel = "<file>",
      description = "Read this config file instead of searching ., $HOME/.config/svc/ and /etc/svc/ for config.yaml.")
  Path file;

  /**
   * The config file {@code --config} names.
   *
   * @return the file, if given
   */
  public Optional<Path> file() {
    return Optional.ofNullable(file);
  }
}
