package dev.svc.cli.access;

import dev.svc.cli.console.Console;
import dev.svc.client.AccessClient;
import dev.svc.server.config.SvcConfig;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a user command runs with, once the flags, the environment and the config file are read.
 *
 * @param config the validated configuration
 * @param configFile the config file that was read, if any
 * @param runtime the process's environment, clock and terminal
 * @param console where the command prints
 * @param client the access server's client
 */
record ClientContext(SvcConfig config, Optional<Path> configFile, ClientRuntime runtime, Console console,
    AccessClient client) {

  /** Whether only machine output is printed ({@code output.quiet}). */
  boolean quiet() {
    return config.output().quiet();
  }
}
