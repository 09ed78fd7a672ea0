package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/install --no-build} into a temporary prefix, and the installed {@code svc}
 * launcher run as a user runs it: with its class-data sharing archive, without it, and with an
 * archive the JVM cannot use.
 */
class InstallIT {

  private static final String ENGINE_RECORD =
      "\\{\"version\":\"[^\"]+\",\"commit\":\"[^\"]*\",\"commitTime\":\"[^\"]*\",\"dirty\":(true|false),"
          + "\"goVersion\":\"[^\"]+\",\"platform\":\"[^\"]+\"}\n";

  @TempDir static Path prefix;

  private static final Path ROOT = Path.of(System.getProperty("svc.root"));

  /** What a finished process wrote and how it exited. */
  private record Run(int exit, String out, String err) {}

  @BeforeAll
  static void install() throws Exception {
    Run install = run(List.of("bash", ROOT.resolve("scripts/install").toString(), "--no-build",
        "--prefix", prefix.toString()), Map.of());
    assertThat(install.err()).isEmpty();
    assertThat(install.exit()).isZero();
    assertThat(install.out()).startsWith("installed " + prefix.resolve("bin/svc") + " (jar and archive in "
        + prefix.resolve("lib/svc") + ")\n");
  }

  private static Run run(List<String> command, Map<String, String> environment) throws Exception {
    Path out = Files.createTempFile(prefix, "out", ".txt");
    Path err = Files.createTempFile(prefix, "err", ".txt");
    ProcessBuilder builder = new ProcessBuilder(command).directory(ROOT.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE);
    builder.environment().put("SVC_CACHE_DIR", System.getProperty("svc.cache.dir"));
    builder.environment().putAll(environment);
    Process process = builder.start();
    process.getOutputStream().close();
    assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("%s finished", command).isTrue();
    return new Run(process.exitValue(), read(out), read(err));
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }

  private static Run svc(Map<String, String> environment, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(prefix.resolve("bin/svc").toString()));
    command.addAll(List.of(args));
    return run(command, environment);
  }

  private static Path archive() {
    return prefix.resolve("lib/svc/svc.jsa");
  }

  @Test
  void installs_the_jar_the_launcher_and_a_usable_archive() throws Exception {
    assertThat(prefix.resolve("lib/svc/svc.jar")).isRegularFile();
    assertThat(Files.isExecutable(prefix.resolve("bin/svc"))).isTrue();
    assertThat(archive()).isNotEmptyFile();
    // -Xshare:on makes the JVM fail instead of ignoring an archive it cannot map.
    Run shared = svc(Map.of("SVC_JAVA_OPTS", "-Xshare:on"), "version", "-o", "json");
    assertThat(shared.err()).isEmpty();
    assertThat(shared.exit()).isZero();
    assertThat(shared.out()).matches(ENGINE_RECORD);
  }

  @Test
  void version_works_with_without_and_with_an_unusable_archive() throws Exception {
    Run with = svc(Map.of(), "version", "-o", "json");
    assertThat(with.out()).matches(ENGINE_RECORD);
    assertThat(with.err()).isEmpty();
    assertThat(with.exit()).isZero();
    byte[] saved = Files.readAllBytes(archive());
    try {
      // The installed archive is read-only: replace it rather than write into it.
      Files.delete(archive());
      Files.writeString(archive(), "not an archive of this JVM\n");
      assertThat(svc(Map.of(), "version", "-o", "json")).isEqualTo(with);
      Files.delete(archive());
      assertThat(svc(Map.of(), "version", "-o", "json")).isEqualTo(with);
      Run text = svc(Map.of(), "version");
      assertThat(text.out()).startsWith("Version: ").contains("\nDate:    ", "\nCommit:  ");
      assertThat(text.exit()).isZero();
    } finally {
      Files.deleteIfExists(archive());
      Files.write(archive(), saved);
    }
  }

  @Test
  void client_commands_start_with_client_options_and_serve_keeps_the_servers() throws Exception {
    Map<String, String> printFlags = Map.of("SVC_JAVA_OPTS", "-XX:+PrintCommandLineFlags");
    Run client = svc(printFlags, "version");
    assertThat(client.exit()).isZero();
    assertThat(client.out().lines().findFirst().orElseThrow())
        .contains("-XX:SharedArchiveFile=" + archive(), "-XX:TieredStopAtLevel=1", "-XX:+UseG1GC");
    Run serve = svc(printFlags, "serve", "--help");
    assertThat(serve.exit()).isZero();
    assertThat(serve.out().lines().findFirst().orElseThrow())
        .contains("-XX:+AlwaysPreTouch", "-XX:MaxHeapSize=536870912", "-XX:+UseParallelGC")
        .doesNotContain("SharedArchiveFile", "TieredStopAtLevel");
  }

  @Test
  void the_installed_launcher_stops_serve_gracefully_on_sigquit() throws Exception {
    try (LaunchedServe serve = LaunchedServe.start(prefix.resolve("bin/svc").toString())) {
      serve.signal("QUIT");

      assertThat(serve.exitCode()).as("exit code; output:%n%s", String.join("\n", serve.output())).isZero();
      assertThat(serve.output()).last().asString().contains(LaunchedServe.STOP_LINES.get(1));
    }
  }

  @Test
  void relay_signals_passes_the_exit_code_through_and_needs_a_command() throws Exception {
    Path relay = prefix.resolve("lib/svc/relay-signals");
    assertThat(run(List.of(relay.toString(), "bash", "-c", "echo out; echo err >&2; exit 3"), Map.of()))
        .isEqualTo(new Run(3, "out\n", "err\n"));
    assertThat(run(List.of(relay.toString()), Map.of()))
        .isEqualTo(new Run(2, "", "relay-signals: no command to run (relay-signals COMMAND [ARGUMENTS...])\n"));
  }

  @Test
  void unknown_arguments_are_a_usage_error() throws Exception {
    Run install = run(List.of("bash", ROOT.resolve("scripts/install").toString(), "--no-build", "--prefixx"), Map.of());
    assertThat(install).isEqualTo(new Run(2, "",
        "scripts/install: unknown argument: --prefixx (see scripts/install --help)\n"));
  }
}
