package dev.svc.cli.policy;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a policy command reads from its surroundings, decided once so tests can give their own: the
 * working directory paths are relative to, stdin, the environment, and whether stdout is a
 * terminal.
 *
 * @param directory the working directory
 * @param stdin what {@code -} reads
 * @param environment the environment variables ({@code NO_COLOR})
 * @param terminal whether stdout is a terminal
 */
record Workspace(Path directory, InputStream stdin, Map<String, String> environment, boolean terminal) {

  /** The process's own surroundings. */
  static Workspace ofProcess() {
    return new Workspace(Path.of("").toAbsolutePath(), System.in, System.getenv(), System.console() != null);
  }

  /** {@code path} against the working directory. */
  Path resolve(String path) {
    return directory.resolve(path);
  }
}
