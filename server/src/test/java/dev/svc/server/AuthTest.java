package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.server.config.ConfigKey;
import dev.svc.server.mesh.Caller;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every API route asks the mesh who calls, and admits only a caller with a grant. */
@ExtendWith(VertxExtension.class)
class AuthTest {

  private static final String CAP = "svc.dev/cap/svc";
  private static final JsonObject FORMAT = new JsonObject().put("source", "policy a.b: K@1\n");

  private static FakeMesh mesh;
  private static SvcServer server;
  private static WebClient client;

  @BeforeAll
  static void start(Vertx vertx) {
    mesh = new FakeMesh(caller(List.of()));
    server = await(SvcServer.create(TestServers.config(), mesh, TestServers::oneEngine).start());
    client = WebClient.create(vertx);
  }

  @AfterAll
  static void stop() {
    await(server.stop());
  }

  private static Caller caller(List<String> tags, String... roles) {
    List<JsonNode> rules = Arrays.stream(roles)
        .map(role -> (JsonNode) JsonNodeFactory.instance.objectNode().put("role", role).put("period", "1h"))
        .toList();
    return new Caller("dana@corp.example", tags, Map.of(CAP, rules));
  }

  private static HttpResponse<Buffer> format(Caller caller) {
    mesh.whoIs = Future.succeededFuture(caller);
    return send(client.post(server.apiPort(), "127.0.0.1", "/api/v1/format"));
  }

  private static HttpResponse<Buffer> send(HttpRequest<Buffer> request) {
    return await(request.putHeader("Content-Type", "application/json").sendJsonObject(FORMAT));
  }

  private static void assertError(HttpResponse<Buffer> response, int status, String message, String help) {
    assertThat(response.statusCode()).isEqualTo(status);
    assertThat(response.bodyAsJsonObject()).isEqualTo(new JsonObject().put("message", message).put("help", help));
  }

  @Test
  void a_caller_with_a_grant_is_served() {
    HttpResponse<Buffer> response = format(caller(List.of(), "view"));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.bodyAsJsonObject().getBoolean("formatted")).isTrue();
  }

  @Test
  void a_caller_without_a_grant_is_403_on_every_route() {
    mesh.whoIs = Future.succeededFuture(caller(List.of()));
    for (String path : List.of("/api/v1/format", "/api/v1/check")) {
      assertError(send(client.post(server.apiPort(), "127.0.0.1", path)), 403, "User not authorized",
          "ask a tailnet administrator to grant dana the capability `svc.dev/cap/svc`");
    }
  }

  @Test
  void a_request_through_the_public_ingress_is_403() {
    mesh.whoIs = Future.succeededFuture(caller(List.of(), "view"));

    assertError(send(client.post(server.apiPort(), "127.0.0.1", "/api/v1/format").putHeader("Tailscale-Funnel-Request", "?1")),
        403, "Unauthorized request from Funnel", "call the API over the tailnet; the public ingress can't reach it");
  }

  @Test
  void a_failed_who_is_is_500() {
    mesh.whoIs = Future.failedFuture("check that the mesh node runs");

    // The engine API's body has no cause: the lookup's error follows the generic advice.
    assertError(send(client.post(server.apiPort(), "127.0.0.1", "/api/v1/format")), 500, "Error getting WhoIs",
        "call the API over the tailnet; if you do, ask the server's operator to check its mesh node"
            + " (cause: check that the mesh node runs)");
  }

  @Test
  void a_tagged_device_is_400() {
    HttpResponse<Buffer> response = format(caller(List.of("tag:ci"), "view"));

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.bodyAsJsonObject().getString("message")).isEqualTo("tagged nodes not (yet) supported");
  }

  @Test
  void the_dev_mesh_without_grants_refuses_with_403() {
    SvcServer dev = await(SvcServer.start(TestServers.config(Map.of(ConfigKey.MESH_DEV_GRANTS, "[]"))));
    try {
      HttpResponse<Buffer> response = send(client.post(dev.apiPort(), "127.0.0.1", "/api/v1/format"));

      assertError(response, 403, "User not authorized",
          "ask a tailnet administrator to grant dev the capability `svc.dev/cap/svc`");
    } finally {
      await(dev.stop());
    }
  }
}
