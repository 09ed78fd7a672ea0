package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.server.config.ConfigKey;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.mesh.tailnet.NodeLogin;
import dev.svc.server.testkit.FakeTailscaled;
import dev.svc.server.testkit.FakeTailscaled.Fault;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Admission end to end in mesh mode external, against the fake daemon: each request comes over a
 * real TCP connection whose loopback source port the fake's proxy map assigns to a tailnet peer, as
 * userspace tailscaled does, so identity comes from who-is of the connection and nothing else.
 */
@ExtendWith(VertxExtension.class)
class MeshAdmissionTest {

  private static final String CAP = "svc.dev/cap/svc";
  private static final String FORMAT = "{\"source\":\"policy a.b: K@1\\n\"}";

  private static FakeTailscaled daemon;
  private static SvcServer server;
  private static WebClient health;

  @BeforeAll
  static void start(Vertx vertx) {
    daemon = await(FakeTailscaled.start(vertx)).running();
    SvcConfig config = TestServers.config(Map.of(ConfigKey.MESH_MODE, "external",
        ConfigKey.MESH_SOCKET, daemon.socket().toString()));
    server = await(SvcServer.create(config, SvcServer.mesh(config.mesh(), new NodeLogin("", false), Map.of()),
        TestServers::oneEngine).start());
    health = WebClient.create(vertx);
  }

  @AfterAll
  static void stop() {
    await(server.stop());
    await(daemon.close());
  }

  /** One HTTP exchange over a connection from a fresh loopback port, mapped to {@code peerIp} unless null. */
  private static Answer call(String peerIp, String path, Map<String, String> headers) {
    return call(peerIp, server.apiPort(), "POST " + path, headers);
  }

  private static Answer call(String peerIp, int port, String requestLine, Map<String, String> headers) {
    String loopback = null;
    try (Socket socket = new Socket()) {
      socket.bind(new InetSocketAddress("127.0.0.1", 0));
      if (peerIp != null) {
        loopback = "127.0.0.1:" + socket.getLocalPort();
        daemon.mapLoopback(loopback, peerIp);
      }
      socket.connect(new InetSocketAddress("127.0.0.1", port));
      StringBuilder request = new StringBuilder(requestLine + " HTTP/1.1\r\nHost: svc\r\nConnection: close\r\n"
          + "Content-Type: application/json\r\nContent-Length: " + FORMAT.length() + "\r\n");
      headers.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
      request.append("\r\n").append(FORMAT);
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.UTF_8));
      out.flush();
      InputStream in = socket.getInputStream();
      String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      int status = Integer.parseInt(response.substring(9, 12));
      String body = response.substring(response.indexOf("\r\n\r\n") + 4);
      return new Answer(status, body.isEmpty() ? new JsonObject() : new JsonObject(body));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      // The daemon forgets a loopback connection once it closed, so a later socket on the same port
      // is unmapped again.
      if (loopback != null) {
        daemon.unmapLoopback(loopback);
      }
    }
  }

  private record Answer(int status, JsonObject body) {}

  private static Answer format(String peerIp) {
    return call(peerIp, "/api/v1/format", Map.of());
  }

  private static void peer(String ip, String login, List<String> tags, String capMap) {
    daemon.peer(ip, login, tags, capMap);
  }

  private static String grants(String rules) {
    return "{\"" + CAP + "\":[" + rules + "],\"other.example/cap\":[1]}";
  }

  @Test
  void a_peer_with_a_grant_is_served() {
    peer("100.101.1.2", "alice@corp.example", List.of(), grants("{\"role\":\"view\",\"period\":\"1h\"}"));

    Answer answer = format("100.101.1.2");

    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.body().getBoolean("formatted")).isTrue();
  }

  @Test
  void a_connection_the_daemon_did_not_open_for_a_peer_gets_the_who_is_failure() {
    peer("100.101.1.3", "alice@corp.example", List.of(), grants("{\"role\":\"view\",\"period\":\"1h\"}"));
    assertThat(format("100.101.1.3").status()).isEqualTo(200);

    Answer unmapped = format(null);

    assertThat(unmapped.status()).isEqualTo(500);
    assertThat(unmapped.body().getString("message")).isEqualTo("Error getting WhoIs");
    assertThat(unmapped.body().getString("help")).isEqualTo("call the API over the tailnet; if you do, ask the"
        + " server's operator to check its mesh node (cause: call the API over the tailnet: this connection doesn't"
        + " come from a tailnet peer (tailscaled refused whois (404): no match for IP:port))");
  }

  @Test
  void no_header_changes_who_calls() {
    Answer forged = call(null, "/api/v1/format", Map.of("Tailscale-User-Login", "alice@corp.example",
        "X-Forwarded-For", "100.101.1.2", "Tailscale-App-Capabilities", grants("{\"role\":\"admin\",\"period\":\"1h\"}")));

    assertThat(forged.status()).isEqualTo(500);
    assertThat(forged.body().getString("message")).isEqualTo("Error getting WhoIs");
  }

  @Test
  void a_request_through_the_public_ingress_is_403_before_any_who_is() {
    peer("100.101.1.4", "alice@corp.example", List.of(), grants("{\"role\":\"view\",\"period\":\"1h\"}"));
    int whoIs = daemon.requests("/localapi/v0/whois").size();

    Answer answer = call("100.101.1.4", "/api/v1/format", Map.of("Tailscale-Funnel-Request", "?1"));

    assertThat(answer.status()).isEqualTo(403);
    assertThat(answer.body().getString("message")).isEqualTo("Unauthorized request from Funnel");
    assertThat(daemon.requests("/localapi/v0/whois")).hasSize(whoIs);
  }

  @Test
  void a_tagged_device_is_400() {
    peer("100.101.1.5", "tagged-devices", List.of("tag:ci"), grants("{\"role\":\"view\",\"period\":\"1h\"}"));

    Answer answer = format("100.101.1.5");

    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.body().getString("message")).isEqualTo("tagged nodes not (yet) supported");
  }

  @Test
  void a_wrongly_typed_rule_is_400() {
    peer("100.101.1.6", "bob@corp.example", List.of(), grants("{\"role\":\"view\",\"period\":\"1h\",\"priority\":\"10\"}"));

    Answer answer = format("100.101.1.6");

    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.body().getString("message")).isEqualTo("Error unmarshaling api capability map");
    assertThat(answer.body().getString("help")).isEqualTo("check the grant syntax of `svc.dev/cap/svc` for user bob"
        + " (cause: `priority` is a string, not a whole number)");
  }

  @Test
  void a_null_cap_map_is_no_rule_403() {
    peer("100.101.1.7", "carol@corp.example", List.of(), "null");

    Answer answer = format("100.101.1.7");

    assertThat(answer.status()).isEqualTo(403);
    assertThat(answer.body().getString("message")).isEqualTo("User not authorized");
  }

  @Test
  void a_cap_map_of_the_wrong_shape_is_the_who_is_failure() {
    peer("100.101.1.8", "dave@corp.example", List.of(), "{\"" + CAP + "\":{\"role\":\"view\"}}");

    Answer answer = format("100.101.1.8");

    assertThat(answer.status()).isEqualTo(500);
    assertThat(answer.body().getString("message")).isEqualTo("Error getting WhoIs");
  }

  @Test
  void duplicate_priorities_are_400_and_identical_rules_count_once() {
    String view = "{\"role\":\"view\",\"period\":\"1h\",\"priority\":5}";
    peer("100.101.1.9", "erin@corp.example", List.of(), grants(view + ",{\"role\":\"edit\",\"period\":\"1h\",\"priority\":5}"));
    peer("100.101.1.10", "frank@corp.example", List.of(), grants(view + "," + view));

    Answer duplicate = format("100.101.1.9");
    Answer identical = format("100.101.1.10");

    assertThat(duplicate.status()).isEqualTo(400);
    assertThat(duplicate.body().getString("message")).isEqualTo("Multiple capability rules with the same priority found");
    assertThat(identical.status()).isEqualTo(200);
  }

  @Test
  void equal_priorities_below_a_unique_top_and_two_absent_priorities_are_400() {
    peer("100.101.1.14", "jo@corp.example", List.of(), grants("{\"role\":\"admin\",\"period\":\"1h\",\"priority\":30},"
        + "{\"role\":\"view\",\"period\":\"1h\",\"priority\":5},{\"role\":\"edit\",\"period\":\"1h\",\"priority\":5}"));
    peer("100.101.1.15", "kai@corp.example", List.of(), grants("{\"role\":\"view\",\"period\":\"1h\"},"
        + "{\"role\":\"edit\",\"period\":\"2h\"}"));

    for (String peerIp : List.of("100.101.1.14", "100.101.1.15")) {
      Answer answer = format(peerIp);
      assertThat(answer.status()).as(peerIp).isEqualTo(400);
      assertThat(answer.body().getString("message")).isEqualTo("Multiple capability rules with the same priority found");
    }
  }

  @Test
  void the_highest_priority_wins_in_either_order_and_signs_in_under_the_short_username() {
    String view = "{\"role\":\"view\",\"period\":\"6h\",\"priority\":10}";
    String admin = "{\"role\":\"admin\",\"period\":\"45m\",\"priority\":20}";
    peer("100.101.1.16", "lena@corp.example", List.of(), grants(view + "," + admin));
    peer("100.101.1.17", "marc", List.of(), grants(admin + "," + view));

    Answer lena = call("100.101.1.16", "/api/v1alpha1/login", Map.of());
    Answer marc = call("100.101.1.17", "/api/v1alpha1/login", Map.of());

    assertThat(lena.status()).isEqualTo(202);
    assertThat(lena.body().getString("username")).isEqualTo("lena");
    assertThat(lena.body().getString("role")).isEqualTo("admin");
    assertThat(marc.status()).isEqualTo(202);
    assertThat(marc.body().getString("username")).isEqualTo("marc"); // no @: the whole login name
    assertThat(marc.body().getString("role")).isEqualTo("admin");
    // The winning rule's 45 minutes, not the other's 6 hours.
    assertThat(java.time.Instant.parse(lena.body().getString("until")))
        .isBetween(java.time.Instant.now().plusSeconds(45 * 60 - 30), java.time.Instant.now().plusSeconds(45 * 60 + 5));
  }

  @Test
  void no_rule_is_403_on_the_access_routes_too_logout_and_cluster_info_included() {
    peer("100.101.1.18", "nora@corp.example", List.of(), "{\"other.example/cap\":[1]}");

    for (String route : List.of("POST /api/v1alpha1/login", "GET /api/v1alpha1/login", "POST /api/v1alpha1/logout",
        "GET /api/v1alpha1/cluster-info", "GET /api/v1alpha1/kubeconfig")) {
      Answer answer = call("100.101.1.18", server.apiPort(), route, Map.of());
      assertThat(answer.status()).as(route).isEqualTo(403);
      assertThat(answer.body().getString("message")).as(route).isEqualTo("User not authorized");
    }
  }

  @Test
  void the_swagger_paths_ask_no_who_is() {
    int whoIs = daemon.requests("/localapi/v0/whois").size();

    Answer document = call(null, server.apiPort(), "GET /swagger/doc.json", Map.of());

    assertThat(document.status()).isEqualTo(200);
    assertThat(document.body().getString("openapi")).startsWith("3.");
    assertThat(daemon.requests("/localapi/v0/whois")).hasSize(whoIs);
  }

  @Test
  void an_empty_role_wins_and_is_400() {
    peer("100.101.1.11", "gina@corp.example", List.of(), grants("{\"period\":\"1h\",\"priority\":9},"
        + "{\"role\":\"view\",\"period\":\"1h\",\"priority\":1}"));

    Answer answer = format("100.101.1.11");

    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.body().getString("message")).isEqualTo("Capability rule has no role");
  }

  @Test
  void a_removed_grant_takes_effect_on_the_next_request() {
    peer("100.101.1.12", "hank@corp.example", List.of(), grants("{\"role\":\"view\",\"period\":\"1h\"}"));
    assertThat(format("100.101.1.12").status()).isEqualTo(200);

    peer("100.101.1.12", "hank@corp.example", List.of(), "{}");

    assertThat(format("100.101.1.12").status()).isEqualTo(403);
  }

  @Test
  void bad_answers_of_the_daemon_are_500_and_the_server_keeps_serving() {
    peer("100.101.1.13", "ivy@corp.example", List.of(), grants("{\"role\":\"view\",\"period\":\"1h\"}"));

    for (Fault fault : List.of(Fault.MALFORMED_JSON, Fault.CLOSE_MID_BODY, Fault.ERROR_500)) {
      daemon.failNext("/localapi/v0/whois", fault);
      Answer answer = format("100.101.1.13");
      assertThat(answer.status()).as(fault.name()).isEqualTo(500);
      assertThat(answer.body().getString("message")).isEqualTo("Error getting WhoIs");
      assertThat(answer.body().getString("help")).startsWith("call the API over the tailnet; if you do, ask the"
          + " server's operator to check its mesh node (cause: check that tailscaled runs and answers at ");
    }

    assertThat(format("100.101.1.13").status()).isEqualTo(200);
  }

  @Test
  void readiness_follows_the_node_out_of_running_and_back() {
    assertThat(ready()).isEqualTo(new JsonObject().put("status", "ready").put("reason", "mesh node is in Running state"));

    daemon.expireNodeKey();
    Awaitility.await().until(() -> !"ready".equals(ready().getString("status")));
    assertThat(ready()).isEqualTo(new JsonObject().put("status", "not ready")
        .put("reason", "mesh node is in NeedsLogin state"));

    daemon.backToRunning();
    Awaitility.await().until(() -> "ready".equals(ready().getString("status")));
  }

  @Test
  void readiness_is_lost_while_the_bus_is_gone_and_back_after_the_reconnect() {
    await(daemon.endBusStreams());

    // Ready again after a second watch: the server may not have seen the stream end when first asked.
    Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> daemon.requests("/localapi/v0/watch-ipn-bus").size()
        > 1 && "ready".equals(ready().getString("status")));
    assertThat(daemon.requests("/localapi/v0/watch-ipn-bus")).hasSizeGreaterThan(1);
  }

  @Test
  void readiness_is_503_until_the_node_first_runs(Vertx vertx) {
    FakeTailscaled fresh = await(FakeTailscaled.start(vertx));
    SvcConfig config = TestServers.config(Map.of(ConfigKey.MESH_MODE, "external",
        ConfigKey.MESH_SOCKET, fresh.socket().toString()));
    SvcServer starting = SvcServer.create(config, SvcServer.mesh(config.mesh(), new NodeLogin("", false), Map.of()),
        TestServers::oneEngine);
    io.vertx.core.Future<SvcServer> started = starting.start();
    try {
      Awaitility.await().ignoreExceptions().until(() -> "mesh node is in NeedsLogin state".equals(
          readiness(starting).bodyAsJsonObject().getString("reason")));
      assertThat(readiness(starting).statusCode()).isEqualTo(503);
      assertThat(started.isComplete()).isFalse();

      fresh.completeLogin();

      await(started);
      assertThat(readiness(starting).bodyAsJsonObject())
          .isEqualTo(new JsonObject().put("status", "ready").put("reason", "mesh node is in Running state"));
    } finally {
      await(starting.stop());
      await(fresh.close());
    }
  }

  private static JsonObject ready() {
    return readiness(server).bodyAsJsonObject();
  }

  private static HttpResponse<Buffer> readiness(SvcServer of) {
    return await(health.get(of.healthPort(), "127.0.0.1", "/ready").send());
  }

  @Test
  void the_health_port_refuses_a_connection_the_daemon_opened_for_a_tailnet_peer() {
    peer("100.101.1.14", "jo@corp.example", List.of(), grants("{\"role\":\"view\",\"period\":\"1h\"}"));

    Answer throughMesh = call("100.101.1.14", server.healthPort(), "GET /metrics", Map.of());
    Answer local = call(null, server.healthPort(), "GET /healthz", Map.of());

    assertThat(throughMesh.status()).isEqualTo(403);
    assertThat(throughMesh.body().getString("message")).isEqualTo("The health port isn't served to the mesh");
    assertThat(local.status()).isEqualTo(200);
  }

  @Test
  void admissions_who_is_latency_and_the_node_state_are_metrics() {
    peer("100.101.1.15", "kim@corp.example", List.of(), grants("{\"role\":\"view\",\"period\":\"1h\"}"));
    assertThat(format("100.101.1.15").status()).isEqualTo(200);
    assertThat(format(null).status()).isEqualTo(500);

    String metrics = await(health.get(server.healthPort(), "127.0.0.1", "/metrics").send()).bodyAsString();

    assertThat(metrics).containsPattern("svc_auth_requests_total\\{reason=\"ok\",result=\"admitted\"} [1-9]")
        .containsPattern("svc_auth_requests_total\\{reason=\"whois_failed\",result=\"rejected\"} [1-9]")
        .containsPattern("svc_mesh_whois_duration_seconds_count [1-9]")
        .contains("svc_mesh_state{state=\"Running\"} 1.0", "svc_mesh_state{state=\"NeedsLogin\"} 0.0");
  }

  @Test
  void the_node_login_never_shows_the_key() {
    assertThat(new NodeLogin("tskey-auth-secret", false).toString()).doesNotContain("tskey");
  }
}
