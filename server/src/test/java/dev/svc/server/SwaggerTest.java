package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.server.access.AccessRoutes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The API's docs (spec §4.2, D29): the document agrees with the routes; the UI needs no who-is. */
@ExtendWith(VertxExtension.class)
class SwaggerTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static SvcServer server;
  private static WebClient client;

  @BeforeAll
  static void start(Vertx vertx) {
    FakeMesh mesh = new FakeMesh(null);
    // Who-is fails for every caller: the docs must not ask.
    mesh.whoIs = Future.failedFuture("no mesh");
    server = await(SvcServer.create(TestServers.config(), mesh, TestServers::oneEngine).start());
    client = WebClient.create(vertx, new WebClientOptions().setFollowRedirects(false));
  }

  @AfterAll
  static void stop() {
    await(server.stop());
  }

  private static HttpResponse<Buffer> get(String path) {
    return await(client.get(server.apiPort(), "127.0.0.1", path).send());
  }

  @Test
  void the_document_has_one_base_path_and_exactly_the_routes_of_the_api() throws Exception {
    JsonNode doc = JSON.readTree(get("/swagger/doc.json").bodyAsString());

    assertThat(doc.at("/servers/0/url").asText()).isEqualTo(AccessRoutes.BASE);
    Map<String, String> documented = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> paths = doc.get("paths").fields(); paths.hasNext(); ) {
      Map.Entry<String, JsonNode> path = paths.next();
      assertThat(path.getKey()).doesNotStartWith(AccessRoutes.BASE);
      List<String> methods = new ArrayList<>();
      path.getValue().fieldNames().forEachRemaining(m -> methods.add(m.toUpperCase(Locale.ROOT)));
      documented.put(AccessRoutes.BASE + path.getKey(), String.join(", ", methods.stream().sorted().toList()));
    }
    // The API itself says which routes it has: a documented path allows exactly the documented
    // methods, and an unknown path's answer lists exactly the documented paths.
    for (Map.Entry<String, String> route : documented.entrySet()) {
      HttpResponse<Buffer> wrongMethod =
          await(client.request(HttpMethod.DELETE, server.apiPort(), "127.0.0.1", route.getKey()).send());
      assertThat(wrongMethod.statusCode()).isEqualTo(405);
      assertThat(wrongMethod.getHeader("Allow")).isEqualTo(route.getValue());
    }
    JsonNode unknown = JSON.readTree(get(AccessRoutes.BASE + "/nothing-here").bodyAsString());
    assertThat(unknown.at("/advice/0").asText())
        .isEqualTo("the API's routes are " + String.join(", ", documented.keySet()));
  }

  @Test
  void both_names_serve_the_same_document_without_who_is() {
    HttpResponse<Buffer> doc = get("/swagger/doc.json");

    assertThat(doc.statusCode()).isEqualTo(200);
    assertThat(doc.getHeader("Content-Type")).isEqualTo("application/json; charset=utf-8");
    assertThat(get("/swagger/swagger.json").bodyAsString()).isEqualTo(doc.bodyAsString());
    assertThat(get("/api/v1alpha1/cluster-info").statusCode()).isEqualTo(500);
  }

  @Test
  void the_ui_is_swagger_ui_pointed_at_the_document() {
    HttpResponse<Buffer> index = get("/swagger/index.html");
    assertThat(index.statusCode()).isEqualTo(200);
    assertThat(index.bodyAsString()).contains("swagger-ui-bundle.js").contains("swagger-initializer.js");
    assertThat(get("/swagger/swagger-ui-bundle.js").statusCode()).isEqualTo(200);
    assertThat(get("/swagger/swagger-initializer.js").bodyAsString()).contains("url: \"doc.json\"");
  }

  @Test
  void swagger_alone_redirects_to_the_ui() {
    HttpResponse<Buffer> response = get("/swagger");

    assertThat(response.statusCode()).isEqualTo(301);
    assertThat(response.getHeader("Location")).isEqualTo("/swagger/index.html");
  }
}
