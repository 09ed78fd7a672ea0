package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.svc.server.config.ConfigKey;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Policies from {@code policies.*}: installed at start-up, ready after, reloaded when files change. */
@ExtendWith(VertxExtension.class)
class ConfigPoliciesTest {

  private static final Duration PATIENCE = Duration.ofSeconds(20);
  private static final JsonObject ADMIN_DELETES = new JsonObject()
      .put("user", new JsonObject().put("name", "root").put("teams", new JsonArray()).put("admin", true))
      .put("action", "delete")
      .put("resource", new JsonObject().put("name", "ledger").put("team", "payments"));

  @TempDir
  Path dir;

  private SvcServer start() throws IOException {
    Files.createDirectories(dir.resolve("access"));
    Files.writeString(dir.resolve("kind.sigil"), PolicyApiTest.file("kind.sigil").getString("source"));
    Files.writeString(dir.resolve("access/main.sigil"), PolicyApiTest.file("access/main.sigil").getString("source"));
    return await(SvcServer.start(TestServers.config(Map.of(
        ConfigKey.POLICIES_DIR, dir.toString(), ConfigKey.POLICIES_INSTALL, "main=access.main"))));
  }

  private static JsonObject eval(WebClient client, SvcServer server) {
    return TestServers.send(client, HttpMethod.POST, server.apiPort(), "/api/v1/policies/main/eval",
        new JsonObject().put("input", ADMIN_DELETES)).bodyAsJsonObject();
  }

  private static JsonObject listed(WebClient client, SvcServer server) {
    return TestServers.send(client, HttpMethod.GET, server.apiPort(), "/api/v1/policies", null)
        .bodyAsJsonObject().getJsonArray("policies").getJsonObject(0);
  }

  @Test
  void configured_policies_serve_from_the_start_and_readiness_waits_for_them(Vertx vertx) throws IOException {
    SvcServer server = start();
    WebClient client = WebClient.create(vertx);
    try {
      assertThat(TestServers.send(client, HttpMethod.GET, server.healthPort(), "/ready", null).statusCode())
          .isEqualTo(200);
      assertThat(listed(client, server)).isEqualTo(new JsonObject().put("name", "main").put("policy", "access.main")
          .put("diagnostics", new JsonArray()).put("source", "config"));
      assertThat(eval(client, server).getString("reason")).isEqualTo("admin");
    } finally {
      await(server.stop());
    }
  }

  @Test
  void a_bad_new_version_keeps_the_old_serving_and_a_good_one_replaces_it(Vertx vertx) throws IOException {
    SvcServer server = start();
    WebClient client = WebClient.create(vertx);
    Path main = dir.resolve("access/main.sigil");
    String source = Files.readString(main);
    try {
      Files.writeString(main, source.replace("when user.admin {", "when user.admn {"));
      await().atMost(PATIENCE).until(() -> listed(client, server).containsKey("reload_failure"));

      assertThat(listed(client, server).getString("reload_failure")).contains("admn");
      assertThat(eval(client, server).getString("reason")).isEqualTo("admin");
      assertThat(TestServers.send(client, HttpMethod.GET, server.healthPort(), "/metrics", null).bodyAsString())
          .contains("svc_policies_reloads_total{policy=\"main\",result=\"failed\"} 1");

      Files.writeString(main, source.replace("when user.admin {", "when user.admin and action != delete {"));
      await().atMost(PATIENCE).until(() -> !listed(client, server).containsKey("reload_failure"));

      assertThat(eval(client, server).getString("reason")).isEqualTo("no_rule");
    } finally {
      await(server.stop());
    }
  }
}
