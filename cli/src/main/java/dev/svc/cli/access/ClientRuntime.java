package dev.svc.cli.access;

import dev.svc.client.AccessClient;
import dev.svc.client.Pause;
import java.io.File;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * Everything the user commands take from the process, in one place so tests replace it: the
 * environment, the user's directories, whether stdout is a terminal, the clock, how to wait, and the
 * HTTP timeout.
 *
 * @param environment the environment variables
 * @param home the user's home directory
 * @param workingDirectory the current directory, searched first for {@code config.yaml}
 * @param tempDirectory where file mode writes kubeconfigs
 * @param osName the {@code os.name} property
 * @param pathSeparator the separator of path lists such as {@code $KUBECONFIG}
 * @param stdoutTty whether stdout is an interactive terminal
 * @param clock the clock; its zone is the local time zone times are shown in
 * @param pause how to wait between attempts
 * @param httpTimeout the longest one request may take
 */
public record ClientRuntime(
    Map<String, String> environment,
    Path home,
    Path workingDirectory,
    Path tempDirectory,
    String osName,
    String pathSeparator,
    boolean stdoutTty,
    Clock clock,
    Pause pause,
    Duration httpTimeout) {

  /**
   * Copies the environment.
   *
   * @param environment the environment variables
   * @param home the user's home directory
   * @param workingDirectory the current directory
   * @param tempDirectory where file mode writes kubeconfigs
   * @param osName the {@code os.name} property
   * @param pathSeparator the separator of path lists
   * @param stdoutTty whether stdout is a terminal
   * @param clock the clock
   * @param pause how to wait
   * @param httpTimeout the request timeout
   */
  public ClientRuntime {
    environment = Map.copyOf(environment);
  }

  /**
   * This process's runtime.
   *
   * @return the runtime
   */
  public static ClientRuntime ofProcess() {
    return new ClientRuntime(
        System.getenv(),
        Path.of(System.getProperty("user.home")),
        Path.of("").toAbsolutePath(),
        Path.of(System.getProperty("java.io.tmpdir")),
        System.getProperty("os.name"),
        File.pathSeparator,
        System.console() != null,
        Clock.systemDefaultZone(),
        Pause.SLEEP,
        AccessClient.DEFAULT_TIMEOUT);
  }
}
