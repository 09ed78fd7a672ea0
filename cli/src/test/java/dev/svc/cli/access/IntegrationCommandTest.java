package dev.svc.cli.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.svc.cli.access.StubServer.Answer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code svc generate integration} (§11.10, deviation D23): the scripts, checked and run by the real shells. */
class IntegrationCommandTest {

  @TempDir Path root;

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = ';', textBlock = """
      bash       ; eval "$(command svc generate integration bash)"                       ; svc() {
      zsh        ; eval "$(command svc generate integration zsh)"                        ; svc() {
      fish       ; command svc generate integration fish | source                        ; function svc
      powershell ; svc generate integration powershell | Out-String | Invoke-Expression  ; function svc {
      """)
  void each_script_names_its_install_line_and_defines_the_svc_function(String shell, String install, String function)
      throws Exception {
    CliRun.Result result = new CliRun(root).run("generate", "integration", shell);

    assertThat(result.code()).isZero();
    assertThat(result.out().lines().limit(2).toList().get(1)).isEqualTo("#   " + install);
    assertThat(result.out()).contains(function);
  }

  @Test
  void the_bash_and_zsh_scripts_intercept_the_listed_commands_and_bypass_flags() throws Exception {
    String script = new CliRun(root).run("generate", "integration", "bash").out();

    assertThat(script).contains("login|signin|auth|reauthenticate|reauth|refresh|kubeconfig)",
        "get) [ \"${2-}\" = kubeconfig ]", "--no-eval|-e|--help|-h|--long|--long=*|-l|--shell)",
        "__svc_out=\"$(command svc \"$@\" --quiet)\" || return $?", "signout|logout)");
  }

  @Test
  void an_unsupported_shell_exits_2() throws Exception {
    CliRun.Result result = new CliRun(root).run("generate", "integration", "tcsh");

    assertThat(result.code()).isEqualTo(2);
    assertThat(result.out()).isEmpty();
    assertThat(result.err()).isEqualTo("Unsupported shell: tcsh\n");
  }

  @ParameterizedTest
  @ValueSource(strings = {"bash", "zsh", "fish"})
  void the_shell_accepts_its_script(String shell) throws Exception {
    assumeFalse(SvcLauncher.missing(shell), shell + " is not installed");
    Path script = root.resolve("integration." + shell);
    Files.writeString(script, new CliRun(root).run("generate", "integration", shell).out());

    Shells.Run check = Shells.run(List.of(shell, "-n", script.toString()), Map.of("PATH", System.getenv("PATH")), root);

    assertThat(check.code()).as(check.output()).isZero();
  }

  // macOS's TMPDIR ends in a slash (/var/folders/…/T/); the session file's path has no double one.
  @ParameterizedTest(name = "{0}, TMPDIR ending in a slash: {1}")
  @CsvSource({"bash, false", "zsh, false", "fish, false", "bash, true", "zsh, true", "fish, true"})
  void login_through_the_wrapper_sets_kubeconfig_in_the_shell_and_logout_unsets_it(String shell, boolean slash)
      throws Exception {
    assumeFalse(SvcLauncher.missing(shell), shell + " is not installed");
    try (StubServer server = sessionServer()) {
      SvcLauncher svc = new SvcLauncher(root);
      Path script = root.resolve("session." + shell);
      Files.writeString(script, shell.equals("fish") ? FISH_SESSION : POSIX_SESSION.replace("{{shell}}", shell));
      Map<String, String> environment = svc.environment(server.port());
      if (slash) {
        environment.put("TMPDIR", svc.tmp + "/");
      }

      Shells.Run run = Shells.run(List.of(shell, script.toString()), environment, root);

      assertThat(run.code()).as(run.output()).isZero();
      assertThat(run.output()).contains("set: " + svc.tmp + "/kubeconfig-", "failed login kept it", "unset: yes");
      try (var left = Files.list(svc.tmp)) {
        assertThat(left.toList()).as("the session file is removed").isEmpty();
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"bash", "zsh", "fish"})
  void login_with_shell_through_the_wrapper_runs_the_subshell_and_never_evaluates_its_output(String shell)
      throws Exception {
    assumeFalse(SvcLauncher.missing(shell), shell + " is not installed");
    try (StubServer server = sessionServer()) {
      SvcLauncher svc = new SvcLauncher(root);
      // The signed-in subshell prints a command: a wrapper that evaluated login's output would run it.
      Path subshell = root.resolve("subshell");
      Files.writeString(subshell, "#!/bin/sh\necho 'echo the-wrapper-ran-this'\n");
      Files.setPosixFilePermissions(subshell, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
      Path script = root.resolve("subshell-session." + shell);
      Files.writeString(script, (shell.equals("fish") ? "command svc generate integration fish | source\n"
          : "eval \"$(command svc generate integration " + shell + ")\"\n") + "svc login --shell\n");
      Map<String, String> environment = svc.environment(server.port());
      environment.put("SHELL", subshell.toString());

      Shells.Run run = Shells.run(List.of(shell, script.toString()), environment, root);

      assertThat(run.code()).as(run.output()).isZero();
      assertThat(run.output()).contains("echo the-wrapper-ran-this").doesNotContain("\nthe-wrapper-ran-this");
    }
  }

  /** A server that signs in, hands out the kubeconfig at once and signs out. */
  private static StubServer sessionServer() throws Exception {
    StubServer server = new StubServer();
    server.on("POST", "/login", Answer.of(202, StubServer.SESSION))
        .on("GET", "/kubeconfig", Answer.of(200, StubServer.KUBECONFIG))
        .on("POST", "/logout", Answer.of(200, StubServer.SESSION));
    return server;
  }

  private static final String POSIX_SESSION = """
      eval "$(command svc generate integration {{shell}})"
      export SVC_KUBECONFIG_MODE=file
      svc login || exit 10
      [ -f "${KUBECONFIG-}" ] || exit 11
      echo "set: $KUBECONFIG"
      before="$KUBECONFIG"
      svc login --port 1 2>/dev/null && exit 12
      [ "$KUBECONFIG" = "$before" ] && echo "failed login kept it"
      svc logout || exit 13
      [ -z "${KUBECONFIG-}" ] && echo "unset: yes"
      """;

  private static final String FISH_SESSION = """
      command svc generate integration fish | source
      set -gx SVC_KUBECONFIG_MODE file
      svc login; or exit 10
      test -f "$KUBECONFIG"; or exit 11
      echo "set: $KUBECONFIG"
      set before $KUBECONFIG
      svc login --port 1 2>/dev/null; and exit 12
      test "$KUBECONFIG" = "$before"; and echo "failed login kept it"
      svc logout; or exit 13
      set -q KUBECONFIG; or echo "unset: yes"
      """;

  /** Runs programs with a clean environment. */
  static final class Shells {
    record Run(int code, String output) {}

    /** Runs {@code command}, failing after two minutes instead of hanging the build. */
    static Run run(List<String> command, Map<String, String> environment, Path directory) throws Exception {
      Path output = Files.createTempFile(directory, "output-", ".txt");
      ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
          .redirectErrorStream(true).redirectOutput(output.toFile());
      builder.environment().clear();
      builder.environment().putAll(environment);
      Process process = builder.start();
      boolean ended = process.waitFor(120, TimeUnit.SECONDS);
      if (!ended) {
        process.destroyForcibly();
      }
      String text = Files.readString(output, StandardCharsets.UTF_8);
      Files.delete(output);
      assertThat(ended).as("%s ended; its output: %s", command, text).isTrue();
      return new Run(process.exitValue(), text);
    }
  }
}
