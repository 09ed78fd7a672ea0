package dev.svc.cli.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.access.StubServer.Answer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LoginCommandTest extends AgainstStubServer {

  @BeforeEach
  void script() {
    server.on("POST", "/login", Answer.of(202, StubServer.SESSION));
  }

  private static final String SESSION_BOX = """
      ✓ sign-in successful!
          ╭──────────────────────────────────────────╮
          │ User:  dana                              │
          │ Role:  admin                             │
          │ Until: Tue, 04 Mar 2025 10:00:00 UTC     │
          ╰──────────────────────────────────────────╯
      """;

  @Test
  void login_polls_until_the_kubeconfig_is_ready_and_merges_it_into_the_users_kubeconfig() throws Exception {
    server.on("GET", "/kubeconfig", Answer.of(202, ""), Answer.of(202, ""), Answer.of(200, StubServer.KUBECONFIG));

    CliRun.Result result = cli.against(server, "login");

    assertThat(result.code()).isZero();
    assertThat(result.out()).isEqualTo(SESSION_BOX
        + "✓ Kubeconfig is ready.\n"
        + "✓ kubeconfig merged into: " + cli.kubeconfig() + "\n"
        + "→ kubectl now uses the context svc-context-dana\n");
    assertThat(result.err()).isEqualTo("Waiting for kubeconfig to be ready...\n");
    assertThat(server.requests()).containsExactly(
        "POST /api/v1alpha1/login Accept=application/json",
        "GET /api/v1alpha1/kubeconfig Accept=application/yaml",
        "GET /api/v1alpha1/kubeconfig Accept=application/yaml",
        "GET /api/v1alpha1/kubeconfig Accept=application/yaml");
    assertThat(cli.time.pauses()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cli.kubeconfig()))).isEqualTo("rw-------");
    assertThat(Files.readString(cli.kubeconfig())).contains("current-context: svc-context-dana", "token: token-1");
  }

  @Test
  void file_mode_writes_a_private_file_and_prints_the_export_statement() throws Exception {
    server.on("GET", "/kubeconfig", Answer.of(200, StubServer.KUBECONFIG));

    CliRun.Result result = cli.against(server, "login", "--kubeconfig-mode", "file");

    assertThat(result.code()).isZero();
    Path written = onlySessionFile();
    assertThat(result.out()).isEqualTo(SESSION_BOX
        + "✓ kubeconfig written to: " + written + "\n"
        + "→ To use this session, run: export KUBECONFIG='" + written + "'\n");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(written))).isEqualTo("rw-------");
    assertThat(Files.readString(written)).isEqualTo(StubServer.KUBECONFIG);
    assertThat(cli.kubeconfig()).doesNotExist();
  }

  @Test
  void quiet_file_mode_prints_exactly_the_statement() throws Exception {
    server.on("GET", "/kubeconfig", Answer.of(202, ""), Answer.of(200, StubServer.KUBECONFIG));
    cli.environment.put("SVC_KUBECONFIG_MODE", "file");
    cli.environment.put("SHELL", "/usr/bin/fish");

    CliRun.Result result = cli.against(server, "login", "--quiet");

    assertThat(result.code()).isZero();
    assertThat(result.out()).isEqualTo("set -gx KUBECONFIG '" + onlySessionFile() + "'\n");
    assertThat(result.err()).isEmpty();
  }

  @Test
  void quiet_merge_mode_prints_nothing() {
    server.on("GET", "/kubeconfig", Answer.of(200, StubServer.KUBECONFIG));

    CliRun.Result result = cli.against(server, "signin", "-q");

    assertThat(result.code()).isZero();
    assertThat(result.out()).isEmpty();
    assertThat(cli.kubeconfig()).exists();
  }

  @Test
  void polling_waits_as_long_as_retry_after_says() {
    server.on("GET", "/kubeconfig", Answer.of(202, "").retryAfter(3), Answer.of(202, "").retryAfter(1),
        Answer.of(200, StubServer.KUBECONFIG));

    assertThat(cli.against(server, "auth", "-q").code()).isZero();

    assertThat(cli.time.pauses()).containsExactly(Duration.ofMillis(100), Duration.ofSeconds(3), Duration.ofSeconds(1));
  }

  @Test
  void polling_stops_at_once_on_401_with_the_servers_error() {
    server.on("GET", "/kubeconfig", Answer.of(401, StubServer.NOT_SIGNED_IN).retryAfter(1));

    CliRun.Result result = cli.against(server, "login");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err()).isEqualTo("""
        ✗ User not signed in

        💡 What you can do:
          • run 'svc login' first

        🔎 Root causes:
          • svcsignins.access.svc.dev "svc-user-dana" not found
        """);
    assertThat(server.requests()).hasSize(2);
    assertThat(cli.kubeconfig()).doesNotExist();
  }

  @Test
  void polling_stops_at_once_on_403() {
    server.on("GET", "/kubeconfig", Answer.of(403, "{\"message\":\"User not authorized\"}"));

    CliRun.Result result = cli.against(server, "login", "-q");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err()).isEqualTo("✗ User not authorized\n");
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void polling_gives_up_when_the_next_wait_would_pass_30_seconds() {
    server.on("GET", "/kubeconfig", Answer.of(202, "").retryAfter(20));

    CliRun.Result result = cli.against(server, "login", "-q");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err()).startsWith("✗ Operation timed out!\n");
    assertThat(cli.time.pauses()).containsExactly(Duration.ofMillis(100), Duration.ofSeconds(20));
    assertThat(server.requests()).hasSize(3);
  }

  @Test
  void polling_gives_up_after_10_attempts() {
    server.on("GET", "/kubeconfig", Answer.of(202, "").retryAfter(1));

    CliRun.Result result = cli.against(server, "login", "-q");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err()).startsWith("✗ the server still answered 202 after 10 attempts\n");
    assertThat(server.requests()).hasSize(11);
  }

  @Test
  void a_failed_sign_in_renders_the_error_and_exits_1() {
    server.on("POST", "/login", Answer.of(422,
        "{\"message\":\"`period` may not specify a duration less than 10 minutes\","
            + "\"advice\":[\"raise the period in the grant for this user\"]}"));

    CliRun.Result result = cli.against(server, "login");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.out()).isEmpty();
    assertThat(result.err()).isEqualTo("""
        ✗ `period` may not specify a duration less than 10 minutes

        💡 What you can do:
          • raise the period in the grant for this user
        """);
  }

  @Test
  void a_request_the_server_never_answers_times_out() {
    server.on("POST", "/login", new Answer(0, java.util.Map.of(), ""));
    cli.httpTimeout = Duration.ofMillis(300);

    CliRun.Result result = cli.against(server, "login");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err()).startsWith("✗ POST http://127.0.0.1:" + server.port() + "/api/v1alpha1/login timed out after 300 ms\n");
  }

  @Test
  void debug_traces_each_request_to_stderr() {
    server.on("GET", "/kubeconfig", Answer.of(202, "").retryAfter(1), Answer.of(200, StubServer.KUBECONFIG));

    CliRun.Result result = cli.against(server, "login", "-q", "--debug");

    String base = "http://127.0.0.1:" + server.port() + "/api/v1alpha1";
    assertThat(result.err().lines().toList()).containsExactly(
        "→ POST " + base + "/login (Accept: application/json)",
        "← 202 POST " + base + "/login in 0 ms, " + StubServer.SESSION.length() + " bytes",
        "→ GET " + base + "/kubeconfig (Accept: application/yaml)",
        "← 202 GET " + base + "/kubeconfig in 0 ms, 0 bytes, Retry-After: 1",
        "→ GET " + base + "/kubeconfig (Accept: application/yaml)",
        "← 200 GET " + base + "/kubeconfig in 0 ms, " + StubServer.KUBECONFIG.length() + " bytes");
  }

  @Test
  void a_terminal_shows_a_spinner_on_stderr_and_clears_it() {
    server.on("GET", "/kubeconfig", Answer.of(202, ""), Answer.of(200, StubServer.KUBECONFIG));
    cli.tty = true;
    cli.environment.put("NO_COLOR", "1");

    CliRun.Result result = cli.against(server, "login");

    assertThat(result.code()).isZero();
    assertThat(result.err()).isEqualTo("\r\033[2K⠙ Waiting for kubeconfig to be ready...\r\033[2K");
    assertThat(result.out()).doesNotContain("Kubeconfig is ready.");
  }

  @Test
  void a_terminal_says_fetching_failed_before_the_error() {
    server.on("GET", "/kubeconfig", Answer.of(202, ""), Answer.of(403, "{\"message\":\"User not authorized\"}"));
    cli.tty = true;
    cli.environment.put("NO_COLOR", "1");

    CliRun.Result result = cli.against(server, "login");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err()).isEqualTo("\r\033[2K⠙ Waiting for kubeconfig to be ready...\r\033[2K"
        + "✗ Fetching kubeconfig failed.\n✗ User not authorized\n");
  }

  private Path onlySessionFile() throws Exception {
    try (var files = Files.list(cli.temp)) {
      List<Path> all = files.toList();
      assertThat(all).hasSize(1);
      assertThat(all.get(0).getFileName().toString()).startsWith("kubeconfig-").endsWith(".yaml");
      return all.get(0);
    }
  }
}
