package dev.svc.cli.access;

import dev.svc.cli.CapturedRun;
import dev.svc.cli.Svc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * Runs {@code svc} in-process against a stub server, with a home and a temp directory of its own, a
 * fake clock, and captured stdout and stderr.
 */
final class CliRun {

  /** What a run printed and returned. */
  record Result(int code, String out, String err) {}

  final Path home;
  final Path temp;
  final Map<String, String> environment = new HashMap<>();
  final FakeTime time = new FakeTime(ZoneId.of("UTC"));
  boolean tty;
  String osName = "Linux";
  Duration httpTimeout = Duration.ofSeconds(30);

  CliRun(Path root) throws IOException {
    home = Files.createDirectories(root.resolve("home"));
    temp = Files.createDirectories(root.resolve("tmp"));
    environment.put("HOME", home.toString());
    environment.put("SHELL", "/bin/bash");
  }

  ClientRuntime runtime() {
    return new ClientRuntime(environment, home, home, temp, osName, ":", tty, time, time, httpTimeout);
  }

  /** Runs {@code svc args...} with {@code --server http://127.0.0.1 --port <port>} appended. */
  Result against(StubServer server, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--server", "http://127.0.0.1", "--port", Integer.toString(server.port())));
    return run(all.toArray(String[]::new));
  }

  /** Runs {@code svc args...} on the command line {@code svc} builds for them, as {@link Svc#main} does. */
  Result run(String... args) {
    String[] ordered = GlobalFlags.afterCommand(args);
    CapturedRun run = CapturedRun.of(Svc.commandLine(runtime(), ordered), ordered);
    return new Result(run.exit(), run.out(), run.err());
  }

  /** The whole command tree, for tests that read its model. */
  CommandLine runtimeCommandLine() {
    return Svc.commandLine(runtime());
  }

  Path kubeconfig() {
    return home.resolve(".kube").resolve("config");
  }
}
