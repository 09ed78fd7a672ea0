package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The engine routes of a real server (dev mesh, fixed engine pool) on free ports. */
@ExtendWith(VertxExtension.class)
class EngineApiTest {

  // The refund-gate bundle of shared/spec/examples/policies/01-refund-gate.
  private static final JsonObject KIND = resource("refund_gate.sigil");
  private static final JsonObject DESK = resource("refunds/desk.sigil");

  private static SvcServer server;
  private static WebClient client;

  @BeforeAll
  static void start(Vertx vertx) {
    server = await(SvcServer.start(TestServers.config()));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1"));
  }

  @AfterAll
  static void stop() {
    await(server.stop());
  }

  private static JsonObject file(String path, String source) {
    return new JsonObject().put("path", path).put("source", source);
  }

  private static JsonObject resource(String path) {
    try (InputStream in = EngineApiTest.class.getResourceAsStream("/refund-gate/" + path)) {
      return file(path, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static HttpResponse<Buffer> post(String path, String body) {
    return await(client.post(server.apiPort(), "127.0.0.1", path)
        .putHeader("Content-Type", "application/json")
        .sendBuffer(Buffer.buffer(body)));
  }

  private static HttpResponse<Buffer> post(String path, JsonObject body) {
    return post(path, body.encode());
  }

  private static void assertError(HttpResponse<Buffer> response, int status, String message, String help) {
    assertThat(response.statusCode()).isEqualTo(status);
    assertThat(response.getHeader("Content-Type")).isEqualTo("application/json; charset=utf-8");
    assertThat(response.bodyAsJsonObject()).isEqualTo(new JsonObject().put("message", message).put("help", help));
  }

  @Test
  void format_answers_the_canonical_source_and_whether_it_was_already() {
    HttpResponse<Buffer> changed = post("/api/v1/format", new JsonObject().put("source", "policy   a.b:K@1"));
    HttpResponse<Buffer> same = post("/api/v1/format", new JsonObject().put("source", "policy a.b: K@1\n"));

    assertThat(changed.statusCode()).isEqualTo(200);
    assertThat(changed.bodyAsJsonObject())
        .isEqualTo(new JsonObject().put("source", "policy a.b: K@1\n").put("formatted", false));
    assertThat(same.bodyAsJsonObject())
        .isEqualTo(new JsonObject().put("source", "policy a.b: K@1\n").put("formatted", true));
  }

  @Test
  void format_of_a_source_that_does_not_parse_is_422_with_its_diagnostics() {
    HttpResponse<Buffer> response =
        post("/api/v1/format", new JsonObject().put("source", "policy {").put("path", "door/main.sigil"));

    assertThat(response.statusCode()).isEqualTo(422);
    JsonObject body = response.bodyAsJsonObject();
    assertThat(body.getString("message")).isEqualTo("door/main.sigil has syntax errors");
    assertThat(body.getString("help")).isEqualTo("fix the syntax errors; fmt only formats files that parse");
    assertThat(body.getJsonArray("diagnostics")).isNotEmpty();
    assertThat(body.getJsonArray("diagnostics").getJsonObject(0).getString("file")).isEqualTo("door/main.sigil");
  }

  @Test
  void format_without_a_source_is_400() {
    assertError(post("/api/v1/format", new JsonObject().put("path", "a.sigil")), 400, "format needs a source",
        "send {\"source\": \"...\", \"path\": \"access/main.sigil\"}; the path, which diagnostics name, is optional");
  }

  @Test
  void check_answers_every_diagnostic_and_none_for_a_clean_bundle() {
    JsonObject typo = file(DESK.getString("path"),
        DESK.getString("source").replace("order.amount > review_over", "order.amout > review_over"));

    HttpResponse<Buffer> problems = post("/api/v1/check", new JsonObject().put("files", new JsonArray().add(KIND).add(typo)));
    HttpResponse<Buffer> none = post("/api/v1/check", new JsonObject().put("files", new JsonArray().add(KIND).add(DESK)));

    assertThat(problems.statusCode()).isEqualTo(200);
    JsonObject first = problems.bodyAsJsonObject().getJsonArray("diagnostics").getJsonObject(0);
    assertThat(first.getString("severity")).isEqualTo("error");
    assertThat(first.getString("file")).isEqualTo("refunds/desk.sigil");
    assertThat(first.getString("message")).contains("amout");
    assertThat(none.statusCode()).isEqualTo(200);
    assertThat(none.bodyAsJsonObject()).isEqualTo(new JsonObject().put("diagnostics", new JsonArray()));
  }

  @Test
  void check_takes_trusted_files_policies_and_lints() {
    JsonObject body = new JsonObject()
        .put("files", new JsonArray().add(DESK))
        .put("trusted_files", new JsonArray().add(KIND))
        .put("policies", new JsonArray().add("refunds.*"))
        .put("lints", new JsonObject().put("unused-let", "error"));

    HttpResponse<Buffer> response = post("/api/v1/check", body);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.bodyAsJsonObject().getJsonArray("diagnostics")).isEmpty();
  }

  @Test
  void a_request_the_engine_refuses_is_422_with_the_engines_message() {
    HttpResponse<Buffer> response = post("/api/v1/check", new JsonObject().put("files", new JsonArray()));

    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(response.bodyAsJsonObject().getString("message")).isEqualTo("the request holds no files");
  }

  @Test
  void an_unknown_lint_is_422_with_the_engines_did_you_mean() {
    HttpResponse<Buffer> response = post("/api/v1/check", new JsonObject()
        .put("files", new JsonArray().add(KIND)).put("lints", new JsonObject().put("unused-lets", "warn")));

    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(response.bodyAsJsonObject().getString("message")).isEqualTo("lints: unknown lint \"unused-lets\"");
    assertThat(response.bodyAsJsonObject().getString("help")).startsWith("did you mean \"unused-let\"?");
  }

  @Test
  void an_unknown_lint_level_is_422_as_the_engine_words_it() {
    assertError(post("/api/v1/check", new JsonObject()
            .put("files", new JsonArray().add(KIND)).put("lints", new JsonObject().put("unused-let", "loud"))),
        422, "lints: unused-let: unknown level \"loud\"", "set a lint to off, warn or error");
  }

  @Test
  void a_body_that_is_not_json_is_400() {
    HttpResponse<Buffer> response = post("/api/v1/check", "{\"files\": [");

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.bodyAsJsonObject().getString("message")).startsWith("the request body isn't JSON: ");
    assertThat(response.bodyAsJsonObject().getString("help"))
        .isEqualTo("send a JSON object such as {\"files\": [{\"path\": \"access/main.sigil\", \"source\": \"...\"}]}");
  }

  @Test
  void a_body_that_is_not_an_object_is_400() {
    assertError(post("/api/v1/format", "[]"), 400, "the request body isn't a JSON object",
        "send a JSON object such as {\"source\": \"...\", \"path\": \"access/main.sigil\"}");
  }

  @Test
  void an_unknown_field_is_400_and_lists_the_fields() {
    assertError(post("/api/v1/check", new JsonObject().put("files", new JsonArray()).put("timeout_ms", 5)), 400,
        "unknown field `timeout_ms`", "the fields are `files`, `lints`, `policies`, `trusted_files`");
    assertError(post("/api/v1/check", new JsonObject().put("files", new JsonArray().add(KIND.copy().put("name", "x")))),
        400, "unknown field `files[0].name`", "the fields there are `path`, `source`");
  }

  @Test
  void a_field_of_the_wrong_type_is_400() {
    assertError(post("/api/v1/check", new JsonObject().put("files", "kind.sigil")), 400, "`files` isn't a list",
        "send a JSON object such as {\"files\": [{\"path\": \"access/main.sigil\", \"source\": \"...\"}]}");
    assertError(post("/api/v1/format", new JsonObject().put("source", 5)), 400, "`source` isn't a string",
        "send a JSON object such as {\"source\": \"...\", \"path\": \"access/main.sigil\"}");
  }

  @Test
  void a_key_given_twice_is_400() {
    HttpResponse<Buffer> response = post("/api/v1/format", "{\"source\": \"a\", \"source\": \"b\"}");

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.bodyAsJsonObject().getString("message")).contains("Duplicate field 'source'");
  }

  @Test
  void a_file_without_a_path_is_400_as_the_engine_words_it() {
    assertError(post("/api/v1/check", new JsonObject().put("files", new JsonArray().add(file("", "x")))), 400,
        "file 1 has no path", "give every file a path, such as access/main.sigil; diagnostics name files by it");
  }

  @Test
  void a_body_not_declared_json_is_415() {
    HttpResponse<Buffer> response = await(client.post(server.apiPort(), "127.0.0.1", "/api/v1/format")
        .putHeader("Content-Type", "text/plain")
        .sendBuffer(Buffer.buffer("{\"source\": \"x\"}")));

    assertError(response, 415, "the request body isn't declared JSON",
        "send the header Content-Type: application/json with a body such as {\"source\": \"...\", \"path\":"
            + " \"access/main.sigil\"}");
  }

  @Test
  void an_empty_body_is_400() {
    assertError(post("/api/v1/format", ""), 400, "the request has no body",
        "send a JSON object such as {\"source\": \"...\", \"path\": \"access/main.sigil\"}");
  }

  @Test
  void a_body_over_the_limit_is_413() {
    String big = new JsonObject().put("source", "x".repeat((int) ApiVerticle.BODY_LIMIT)).encode();

    assertError(post("/api/v1/format", big), 413, "the request body is larger than 4194304 bytes",
        "send a smaller request, such as fewer files at a time");
  }

  @Test
  void an_unknown_path_is_404_and_a_wrong_method_405_with_allow() {
    HttpResponse<Buffer> missing = await(client.get(server.apiPort(), "127.0.0.1", "/api/v1/nothing").send());
    HttpResponse<Buffer> wrongMethod = await(client.get(server.apiPort(), "127.0.0.1", "/api/v1/check").send());

    assertError(missing, 404, "Not found", "the API's routes are /api/v1/check, /api/v1/explain, /api/v1/format, /api/v1/policies,"
        + " /api/v1/policies/{name}, /api/v1/policies/{name}/eval, /api/v1/test, /api/v1alpha1/cluster-info,"
        + " /api/v1alpha1/kubeconfig, /api/v1alpha1/login, /api/v1alpha1/logout, /swagger, /swagger/*, /swagger/doc.json, /swagger/swagger-initializer.js,"
        + " /swagger/swagger.json");
    assertError(wrongMethod, 405, "GET isn't a method of /api/v1/check", "use POST");
    assertThat(wrongMethod.getHeader("Allow")).isEqualTo("POST");
  }

  @Test
  void metrics_count_and_time_the_api_requests_by_route_method_and_status_and_show_the_jvm() {
    post("/api/v1/format", new JsonObject().put("source", "policy a.b: K@1\n"));
    await(client.get(server.apiPort(), "127.0.0.1", "/api/v1/unheard-of").send());
    await(client.get(server.apiPort(), "127.0.0.1", "/api/v1/policies/access.main/eval").send());

    String metrics = await(client.get(server.healthPort(), "127.0.0.1", "/metrics").send()).bodyAsString();

    assertThat(metrics)
        .containsPattern("svc_requests_total\\{code=\"200\",method=\"POST\",url=\"/api/v1/format\"} \\d")
        .containsPattern("svc_request_duration_seconds_count\\{code=\"200\",method=\"POST\",url=\"/api/v1/format\"} \\d")
        .containsPattern("svc_requests_total\\{code=\"404\",method=\"GET\",url=\"unmatched\"} \\d")
        .containsPattern("svc_requests_total\\{code=\"405\",method=\"GET\",url=\"/api/v1/policies/:name/eval\"} \\d")
        .contains("jvm_memory_used_bytes")
        .contains("jvm_threads_live_threads");
  }

  @Test
  void liveness_and_readiness_answer_on_the_health_port() {
    HttpResponse<Buffer> live = await(client.get(server.healthPort(), "127.0.0.1", "/healthz").send());
    HttpResponse<Buffer> ready = await(client.get(server.healthPort(), "127.0.0.1", "/ready").send());

    assertThat(live.statusCode()).isEqualTo(200);
    assertThat(live.bodyAsJsonObject()).isEqualTo(new JsonObject().put("status", "ok"));
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.bodyAsJsonObject()).isEqualTo(new JsonObject().put("status", "ready")
        .put("reason", "mesh node is in Running state (mesh mode dev: no tailnet)"));
  }
}
