package dev.svc.cli.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.access.StubServer.Answer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** get login, signout, reauthenticate, kubeconfig and cluster-info against a stub server (§11.6, §11.8). */
class SessionCommandsTest extends AgainstStubServer {

  @Test
  void get_login_shows_a_provisioned_session() {
    server.on("GET", "/login", Answer.of(200, StubServer.SESSION));

    CliRun.Result result = cli.against(server, "get", "login");

    assertThat(result.code()).isZero();
    assertThat(result.out()).isEqualTo("""
        ℹ Login Information:
            ╭────────────────────────────────────────────╮
            │ User:        dana                          │
            │ Role:        admin                         │
            │ Until:       Tue, 04 Mar 2025 10:00:00 UTC │
            │ Provisioned: True                          │
            ╰────────────────────────────────────────────╯
        """);
  }

  @Test
  void get_login_shows_202_as_not_provisioned_even_when_quiet() {
    server.on("GET", "/login", Answer.of(202, StubServer.SESSION).retryAfter(1));

    CliRun.Result result = cli.against(server, "get", "signin", "-q");

    assertThat(result.code()).isZero();
    assertThat(result.out()).contains("│ Provisioned: False ");
  }

  @Test
  void get_login_when_not_signed_in_renders_the_error() {
    server.on("GET", "/login", Answer.of(401, StubServer.NOT_SIGNED_IN));

    CliRun.Result result = cli.against(server, "get", "login");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.out()).isEmpty();
    assertThat(result.err()).startsWith("✗ User not signed in\n");
  }

  @Test
  void signout_says_so_and_exits_0() {
    server.on("POST", "/logout", Answer.of(200, StubServer.SESSION));

    CliRun.Result result = cli.against(server, "signout");

    assertThat(result.code()).isZero();
    assertThat(result.out()).isEqualTo("✓ You have been signed out\n");
    assertThat(cli.against(server, "logout", "-q").out()).isEmpty();
  }

  @Test
  void signout_when_not_signed_in_exits_1_with_the_error_on_stderr() {
    server.on("POST", "/logout", Answer.of(404, StubServer.NOT_SIGNED_IN));

    CliRun.Result result = cli.against(server, "signout");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.out()).isEmpty();
    assertThat(result.err()).startsWith("✗ User not signed in\n");
  }

  @Test
  void reauthenticate_when_not_signed_in_goes_on_to_sign_in() {
    server.on("POST", "/logout", Answer.of(404, StubServer.NOT_SIGNED_IN))
        .on("POST", "/login", Answer.of(202, StubServer.SESSION))
        .on("GET", "/kubeconfig", Answer.of(200, StubServer.KUBECONFIG));

    CliRun.Result result = cli.against(server, "reauth", "-q");

    assertThat(result.code()).isZero();
    assertThat(server.requests()).extracting(r -> r.substring(0, r.indexOf(" Accept"))).containsExactly(
        "POST /api/v1alpha1/logout", "POST /api/v1alpha1/login", "GET /api/v1alpha1/kubeconfig");
  }

  @Test
  void reauthenticate_waits_until_the_old_session_is_gone() {
    server.on("POST", "/logout", Answer.of(200, StubServer.SESSION))
        .on("GET", "/login", Answer.of(200, StubServer.SESSION), Answer.of(401, StubServer.NOT_SIGNED_IN))
        .on("POST", "/login", Answer.of(202, StubServer.SESSION))
        .on("GET", "/kubeconfig", Answer.of(200, StubServer.KUBECONFIG));

    CliRun.Result result = cli.against(server, "refresh", "-q");

    assertThat(result.code()).isZero();
    assertThat(server.requests()).extracting(r -> r.substring(0, r.indexOf(" Accept"))).containsExactly(
        "POST /api/v1alpha1/logout", "GET /api/v1alpha1/login", "GET /api/v1alpha1/login",
        "POST /api/v1alpha1/login", "GET /api/v1alpha1/kubeconfig");
  }

  @Test
  void reauthenticate_stops_when_sign_out_fails_otherwise() {
    server.on("POST", "/logout", Answer.of(500, "{\"message\":\"Failed to remove sign-in request\"}"));

    CliRun.Result result = cli.against(server, "reauthenticate");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err()).isEqualTo("✗ Failed to remove sign-in request\n");
  }

  @Test
  void get_kubeconfig_in_file_mode_prints_the_statement() throws Exception {
    server.on("GET", "/kubeconfig", Answer.of(200, StubServer.KUBECONFIG));
    cli.environment.put("SVC_KUBECONFIG_MODE", "file");

    CliRun.Result result = cli.against(server, "get", "kubeconfig", "-q");

    assertThat(result.code()).isZero();
    assertThat(result.out()).startsWith("export KUBECONFIG='" + cli.temp + "/kubeconfig-").endsWith(".yaml'\n");
  }

  @Test
  void a_wrong_kubeconfig_mode_variable_is_an_error() {
    cli.environment.put("SVC_KUBECONFIG_MODE", "both");

    CliRun.Result result = cli.against(server, "kubeconfig");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err()).startsWith("✗ SVC_KUBECONFIG_MODE is `both`, not a kubeconfig mode\n");
  }

  @Test
  void cluster_info_abbreviates_the_ca_and_sorts_the_labels() {
    server.on("GET", "/cluster-info", Answer.of(200,
        "{\"server_url\":\"https://k8s-api.corp.example:6443\",\"insecure_skip_tls_verify\":false,"
            + "\"ca_data\":\"LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==\",\"labels\":{\"region\":\"eu\",\"env\":\"staging\"}}"));

    CliRun.Result result = cli.against(server, "cluster-info");

    assertThat(result.code()).isZero();
    assertThat(result.out()).isEqualTo("""
        ℹ Cluster Information:
            ╭───────────────────────────────────────────────╮
            │ Server URL: https://k8s-api.corp.example:6443 │
            │                                               │
            │ Insecure: false                               │
            │ CA Data:  LS0tLS1CRUdJTiBDRVJU...tCg==        │
            │                                               │
            │ Labels:                                       │
            │   env=staging                                 │
            │   region=eu                                   │
            ╰───────────────────────────────────────────────╯
        """);
  }

  @Test
  void cluster_info_shows_a_short_ca_whole() {
    server.on("GET", "/cluster-info", Answer.of(200,
        "{\"server_url\":\"https://k\",\"insecure_skip_tls_verify\":true,\"ca_data\":\"c2hvcnQ=\",\"labels\":{}}"));

    CliRun.Result result = cli.against(server, "get", "cluster-info");

    assertThat(result.code()).isZero();
    assertThat(result.out()).contains("│ CA Data:  c2hvcnQ= ");
  }

  @Test
  void an_unreachable_server_is_a_connection_problem_with_advice() throws Exception {
    int port;
    try (var socket = new java.net.ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    CliRun.Result result = cli.run("cluster-info", "--server", "http://127.0.0.1", "--port", Integer.toString(port));

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err()).startsWith("✗ GET http://127.0.0.1:" + port + "/api/v1alpha1/cluster-info couldn't connect\n")
        .contains("💡 What you can do:\n  • check that this machine is connected to the mesh");
  }

  @Test
  void the_kubeconfig_file_is_untouched_by_a_failed_login() throws Exception {
    Files.createDirectories(cli.kubeconfig().getParent());
    Files.writeString(cli.kubeconfig(), "current-context: mine\n");
    server.on("POST", "/login", Answer.of(403, "{\"message\":\"User not authorized\"}"));

    assertThat(cli.against(server, "login").code()).isEqualTo(1);

    assertThat(Files.readString(cli.kubeconfig())).isEqualTo("current-context: mine\n");
  }
}
