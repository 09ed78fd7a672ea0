package dev.svc.cli.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.svc.cli.access.StubServer.Answer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code svc shell} (§11.5, O7): the subshell's environment, the clean-up after it, its exit code. */
class ShellCommandTest extends AgainstStubServer {

  @BeforeEach
  void script() {
    server.on("POST", "/login", Answer.of(202, StubServer.SESSION))
        .on("GET", "/kubeconfig", Answer.of(200, StubServer.KUBECONFIG))
        .on("POST", "/logout", Answer.of(200, StubServer.SESSION));
  }

  /** A "shell" that records what it was given and exits with {@code code}. */
  private Path fakeShell(int code) throws Exception {
    Path shell = root.resolve("fake-shell");
    Files.writeString(shell, """
        #!/bin/sh
        { echo "args: $*"; echo "KUBECONFIG=$KUBECONFIG"; echo "PS1=$PS1"; cat "$KUBECONFIG"; } > '%s'
        exit %d
        """.formatted(root.resolve("seen"), code));
    Files.setPosixFilePermissions(shell, PosixFilePermissions.fromString("rwx------"));
    return shell;
  }

  @Test
  void the_subshell_gets_the_kubeconfig_and_the_prompt_and_its_exit_code_is_svcs() throws Exception {
    cli.environment.put("SHELL", fakeShell(7).toString());
    cli.environment.put("PS1", "$ ");

    CliRun.Result result = cli.against(server, "shell", "-q");

    assertThat(result.code()).isEqualTo(7);
    String seen = Files.readString(root.resolve("seen"));
    assertThat(seen).startsWith("args: -i\nKUBECONFIG=" + cli.temp + "/kubeconfig-")
        .contains("\nPS1=(svc) $ \n", "token: token-1");
    assertThat(server.requests()).last().asString().startsWith("POST /api/v1alpha1/logout");
    try (var left = Files.list(cli.temp)) {
      assertThat(left.toList()).as("the kubeconfig is removed").isEmpty();
    }
    assertThat(result.out()).isEmpty();
  }

  @Test
  void login_with_shell_behaves_like_svc_shell() throws Exception {
    cli.environment.put("SHELL", fakeShell(0).toString());

    CliRun.Result result = cli.against(server, "login", "--shell", "-q");

    assertThat(result.code()).isZero();
    assertThat(Files.readString(root.resolve("seen"))).contains("KUBECONFIG=" + cli.temp + "/kubeconfig-");
  }

  @Test
  void a_failed_sign_out_after_a_successful_subshell_exits_1_with_advice() throws Exception {
    cli.environment.put("SHELL", fakeShell(0).toString());
    server.on("POST", "/logout", Answer.of(500, "{\"message\":\"Failed to remove sign-in request\"}"));

    CliRun.Result result = cli.against(server, "shell");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err()).startsWith("✗ signing out failed: Failed to remove sign-in request\n")
        .contains("  • run `svc logout` to end the session\n");
    try (var left = Files.list(cli.temp)) {
      assertThat(left.toList()).isEmpty();
    }
  }

  @Test
  void a_shell_that_cant_start_signs_out_again() throws Exception {
    cli.environment.put("SHELL", root.resolve("no-such-shell").toString());

    CliRun.Result result = cli.against(server, "shell", "-q");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err()).startsWith("✗ couldn't start the shell `" + root.resolve("no-such-shell") + "`\n");
    assertThat(server.requests()).last().asString().startsWith("POST /api/v1alpha1/logout");
  }

  @Test
  void windows_has_no_svc_shell() {
    cli.osName = "Windows 11";

    CliRun.Result result = cli.against(server, "shell");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err()).startsWith("✗ svc shell runs on unix only\n");
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void a_real_interactive_shell_in_tmux_gets_the_prompt_survives_ctrl_c_and_cleans_up() throws Exception {
    assumeFalse(SvcLauncher.missing("tmux"), "tmux is not installed");
    SvcLauncher svc = new SvcLauncher(root);
    String socket = "svc-test-" + UUID.randomUUID();
    Map<String, String> environment = svc.environment(server.port());
    environment.put("SHELL", "/bin/sh");
    environment.put("SVC_OUTPUT_QUIET", "true");
    Path code = root.resolve("code");
    try {
      // The pane's own shell ignores Ctrl-C: as a user's shell does while a job runs, unlike `sh -c`.
      tmux(environment, socket, "new-session", "-d", "-x", "120", "-y", "30",
          "trap '' INT; svc shell; echo $? > '" + code + "'");
      tmux(environment, socket, "send-keys", "echo \"KC=$KUBECONFIG\"; tmux -L " + socket + " wait-for -S shown", "Enter");
      tmux(environment, socket, "wait-for", "shown");
      String pane = tmux(environment, socket, "capture-pane", "-p");
      assertThat(pane).contains("(svc) ").contains("KC=" + svc.tmp + "/kubeconfig-");

      tmux(environment, socket, "send-keys", "C-c");
      tmux(environment, socket, "send-keys", "exit 3", "Enter");
      try {
        Awaitility.await().atMost(Duration.ofMinutes(2)).until(() -> Files.exists(code) && Files.size(code) > 0);
      } catch (ConditionTimeoutException e) {
        throw new AssertionError("svc shell didn't end; the pane shows:\n" + tmux(environment, socket, "capture-pane", "-p"), e);
      }

      assertThat(Files.readString(code)).isEqualTo("3\n");
      assertThat(server.requests()).last().asString().startsWith("POST /api/v1alpha1/logout");
      try (var left = Files.list(svc.tmp)) {
        assertThat(left.toList()).isEmpty();
      }
    } finally {
      new ProcessBuilder("tmux", "-L", socket, "kill-server").start().waitFor();
    }
  }

  @Test
  void sigterm_to_svc_ends_the_shell_signs_out_and_removes_the_kubeconfig() throws Exception {
    SvcLauncher svc = new SvcLauncher(root);
    Path started = root.resolve("started");
    Path shell = root.resolve("waiting-shell");
    Files.writeString(shell, "#!/bin/sh\necho \"$KUBECONFIG\" > '" + started + "'\nexec sleep 600\n");
    Files.setPosixFilePermissions(shell, PosixFilePermissions.fromString("rwx------"));
    Map<String, String> environment = svc.environment(server.port());
    environment.put("SHELL", shell.toString());
    ProcessBuilder builder = new ProcessBuilder(svc.bin.resolve("svc").toString(), "shell", "-q")
        .directory(root.toFile()).redirectErrorStream(true).redirectOutput(root.resolve("svc.log").toFile());
    builder.environment().clear();
    builder.environment().putAll(environment);
    Process process = builder.start();
    try {
      Awaitility.await().atMost(Duration.ofMinutes(2)).until(() -> Files.exists(started) || !process.isAlive());
      assertThat(process.isAlive()).as(Files.readString(root.resolve("svc.log"))).isTrue();

      process.destroy();

      assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
      assertThat(server.requests()).last().asString().startsWith("POST /api/v1alpha1/logout");
      assertThat(Path.of(Files.readString(started).strip())).doesNotExist();
    } finally {
      process.destroyForcibly();
    }
  }

  private String tmux(Map<String, String> environment, String socket, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("tmux", "-L", socket));
    command.addAll(List.of(args));
    IntegrationCommandTest.Shells.Run run = IntegrationCommandTest.Shells.run(command, environment, root);
    assertThat(run.code()).as(String.join(" ", command) + ": " + run.output()).isZero();
    return run.output();
  }
}
