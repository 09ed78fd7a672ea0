package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.engine.BusyException;
import dev.svc.server.config.ConfigKey;
import dev.svc.server.engine.EnginePool;
import dev.svc.server.mesh.DevMesh;
import dev.svc.supervisor.Pool;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The policies API of a real server (dev mesh, supervised pool) on free ports, its evaluations on the
 * pool's threads; {@link PolicyApiOnLoopTest} runs the same with evaluations on the event loops.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PolicyApiTest {

  private static final Path CONF = Path.of("../conf/policies");
  private static final JsonObject KIND = file("kind.sigil");
  private static final JsonObject MAIN = file("access/main.sigil");
  /** Ann, of the payments team, reads its ledger: access.main allows it. */
  static final JsonObject MEMBER_READS = new JsonObject()
      .put("user", new JsonObject().put("name", "ann").put("teams", new JsonArray().add("payments")).put("admin", false))
      .put("action", "read")
      .put("resource", new JsonObject().put("name", "ledger").put("team", "payments"));

  private static final Pattern LANE_EVALUATIONS =
      Pattern.compile("svc_pool_queue_seconds_count\\{lane=\"evaluations\"} (\\d+)");

  private SvcServer server;
  private WebClient client;

  /** The engine's keys the server runs with: here every evaluation on the pool's threads. */
  Map<ConfigKey, String> engineSettings() {
    return Map.of(ConfigKey.ENGINE_LOOP_EVAL_BUDGET, "0");
  }

  /** Whether a small evaluation on an idle server runs on the event loop that read it. */
  boolean evaluatesOnLoops() {
    return false;
  }

  @BeforeAll
  void start(Vertx vertx) {
    server = await(SvcServer.start(TestServers.config(engineSettings())));
    client = WebClient.create(vertx);
  }

  @AfterAll
  void stop() {
    await(server.stop());
  }

  /** How many evaluations the lane of evaluations started, from the metrics of {@code server}. */
  static long laneEvaluations(WebClient client, SvcServer server) {
    String metrics = TestServers.send(client, HttpMethod.GET, server.healthPort(), "/metrics", null).bodyAsString();
    Matcher count = LANE_EVALUATIONS.matcher(metrics);
    assertThat(count.find()).as("the lane's queue timer is exposed").isTrue();
    return Long.parseLong(count.group(1));
  }

  static JsonObject file(String path) {
    try {
      return new JsonObject().put("path", path).put("source", Files.readString(CONF.resolve(path)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonObject install(JsonObject... files) {
    JsonArray list = new JsonArray();
    for (JsonObject file : files) {
      list.add(file);
    }
    return new JsonObject().put("files", list);
  }

  private HttpResponse<Buffer> send(HttpMethod method, String path, JsonObject body) {
    return TestServers.send(client, method, server.apiPort(), path, body);
  }

  private static void assertError(HttpResponse<Buffer> response, int status, String message, String help) {
    assertThat(response.statusCode()).isEqualTo(status);
    assertThat(response.bodyAsJsonObject().getString("message")).isEqualTo(message);
    assertThat(response.bodyAsJsonObject().getString("help")).isEqualTo(help);
  }

  @Test
  void installing_is_201_when_new_and_200_when_it_replaces() {
    HttpResponse<Buffer> created = send(HttpMethod.PUT, "/api/v1/policies/put-twice", install(KIND, MAIN));
    HttpResponse<Buffer> replaced = send(HttpMethod.PUT, "/api/v1/policies/put-twice", install(KIND, MAIN));

    assertThat(created.statusCode()).isEqualTo(201);
    assertThat(created.bodyAsJsonObject()).isEqualTo(new JsonObject()
        .put("name", "put-twice").put("policy", "access.main").put("diagnostics", new JsonArray()));
    assertThat(replaced.statusCode()).isEqualTo(200);
  }

  @Test
  void a_policy_the_engine_refuses_is_422_with_its_diagnostics_and_changes_nothing() {
    JsonObject broken = new JsonObject().put("path", "access/main.sigil")
        .put("source", MAIN.getString("source").replace("user.admin {", "user.admn {"));

    HttpResponse<Buffer> refused = send(HttpMethod.PUT, "/api/v1/policies/broken", install(KIND, broken));

    assertThat(refused.statusCode()).isEqualTo(422);
    assertThat(refused.bodyAsJsonObject().getJsonArray("diagnostics")).isNotEmpty();
    assertThat(send(HttpMethod.GET, "/api/v1/policies/broken", null).statusCode()).isEqualTo(404);
  }

  @Test
  void an_evaluation_answers_the_record_exactly_as_the_engine_wrote_it() {
    send(HttpMethod.PUT, "/api/v1/policies/eval-me", install(KIND, MAIN));

    HttpResponse<Buffer> answer =
        send(HttpMethod.POST, "/api/v1/policies/eval-me/eval", new JsonObject().put("input", MEMBER_READS));

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.getHeader("Content-Type")).isEqualTo("application/json; charset=utf-8");
    assertThat(answer.bodyAsString()).isEqualTo("{\"payload\":{\"audit\":false},\"policy\":\"access.main\","
        + "\"decision\":\"allow\",\"reason\":\"team_member\",\"outcome\":[{\"payload\":{\"audit\":false},"
        + "\"decision\":\"allow\",\"reason\":\"team_member\",\"policy\":\"access.main\","
        + "\"position\":\"access/main.sigil:14:3\"}],\"trace\":[{\"payload\":{\"audit\":false},"
        + "\"decision\":\"allow\",\"reason\":\"team_member\",\"policy\":\"access.main\","
        + "\"position\":\"access/main.sigil:14:3\",\"conditions\":[\"member and action != delete\"],"
        + "\"outcome\":true}]}");
  }

  @Test
  void a_small_evaluation_runs_on_the_event_loop_only_with_a_budget_for_it() {
    send(HttpMethod.PUT, "/api/v1/policies/where", install(KIND, MAIN));
    long before = laneEvaluations(client, server);

    assertThat(send(HttpMethod.POST, "/api/v1/policies/where/eval", new JsonObject().put("input", MEMBER_READS))
        .statusCode()).isEqualTo(200);

    assertThat(laneEvaluations(client, server)).isEqualTo(before + (evaluatesOnLoops() ? 0 : 1));
  }

  @Test
  void an_evaluation_asked_without_its_trace_answers_the_record_less_its_trace() {
    send(HttpMethod.PUT, "/api/v1/policies/light", install(KIND, MAIN));
    String record = send(HttpMethod.POST, "/api/v1/policies/light/eval",
        new JsonObject().put("input", MEMBER_READS)).bodyAsString();
    String light = record.substring(0, record.indexOf(",\"trace\":")) + "}";

    assertThat(send(HttpMethod.POST, "/api/v1/policies/light/eval",
        new JsonObject().put("input", MEMBER_READS).put("trace", false)).bodyAsString()).isEqualTo(light);
    assertThat(send(HttpMethod.POST, "/api/v1/policies/light/eval?trace=false",
        new JsonObject().put("input", MEMBER_READS)).bodyAsString()).isEqualTo(light);
    assertThat(send(HttpMethod.POST, "/api/v1/policies/light/eval?trace=false",
        new JsonObject().put("input", MEMBER_READS).put("trace", true)).bodyAsString()).isEqualTo(record);
    assertThat(send(HttpMethod.POST, "/api/v1/policies/light/eval?trace=true",
        new JsonObject().put("input", MEMBER_READS)).bodyAsString()).isEqualTo(record);
    assertError(send(HttpMethod.POST, "/api/v1/policies/light/eval?trace=no",
            new JsonObject().put("input", MEMBER_READS)), 400,
        "the query's `trace` is `no`, not true or false",
        "give it once, as ?trace=false for the record without its trace, or leave it out");
  }

  @Test
  void an_evaluation_may_ask_for_a_timeout_up_to_engine_max_eval_timeout() {
    send(HttpMethod.PUT, "/api/v1/policies/capped", install(KIND, MAIN));

    for (long timeout : new long[] {5001, Long.MAX_VALUE}) {
      assertError(send(HttpMethod.POST, "/api/v1/policies/capped/eval",
              new JsonObject().put("input", MEMBER_READS).put("timeout_ms", timeout)), 400,
          "`timeout_ms` is " + timeout + ", more than engine.maxEvalTimeout (5s)",
          "ask for at most 5000, or leave it out for the server's default");
    }
    assertThat(send(HttpMethod.POST, "/api/v1/policies/capped/eval",
        new JsonObject().put("input", MEMBER_READS).put("timeout_ms", 5000)).statusCode()).isEqualTo(200);
  }

  @Test
  void an_evaluation_asks_for_an_input_and_a_positive_timeout() {
    send(HttpMethod.PUT, "/api/v1/policies/strict", install(KIND, MAIN));

    assertError(send(HttpMethod.POST, "/api/v1/policies/strict/eval", new JsonObject()), 400,
        "eval needs an input", "send {\"input\": {...}, \"timeout_ms\": 100}; timeout_ms is optional");
    assertError(send(HttpMethod.POST, "/api/v1/policies/strict/eval",
            new JsonObject().put("input", MEMBER_READS).put("timeout_ms", 0)), 400,
        "`timeout_ms` is 0, not a positive number of milliseconds",
        "leave it out for the server's default, or give a positive whole number such as 100");
    assertError(send(HttpMethod.POST, "/api/v1/policies/strict/eval",
            new JsonObject().put("input", MEMBER_READS).put("timeoutMs", 5)), 400,
        "unknown field `timeoutMs`", "the fields are `input`, `timeout_ms`, `trace`");
    assertThat(send(HttpMethod.POST, "/api/v1/policies/strict/eval",
        new JsonObject().put("input", new JsonObject().put("actor", 1))).statusCode()).isEqualTo(422);
    assertError(await(client.post(server.apiPort(), "127.0.0.1", "/api/v1/policies/strict/eval")
            .putHeader("Content-Type", "application/json")
            .sendBuffer(Buffer.buffer("{\"input\": {\"action\": \"read\", \"action\": \"delete\"}}"))), 400,
        "the request body isn't JSON: Duplicate field 'action' (line 1, column 38)",
        "send a JSON object such as {\"input\": {...}, \"timeout_ms\": 100}");
  }

  @Test
  void an_unknown_policy_is_404_naming_the_installed_ones() {
    send(HttpMethod.PUT, "/api/v1/policies/known", install(KIND, MAIN));

    HttpResponse<Buffer> eval =
        send(HttpMethod.POST, "/api/v1/policies/unknown/eval", new JsonObject().put("input", MEMBER_READS));
    HttpResponse<Buffer> delete = send(HttpMethod.DELETE, "/api/v1/policies/unknown", null);

    assertThat(eval.statusCode()).isEqualTo(404);
    assertThat(eval.bodyAsJsonObject().getString("message")).isEqualTo("no policy is installed under `unknown`");
    assertThat(eval.bodyAsJsonObject().getString("help")).startsWith("the installed policies are ").contains("known");
    assertThat(delete.statusCode()).isEqualTo(404);
  }

  @Test
  void the_list_is_sorted_with_sources_and_a_policy_shows_its_explanation() {
    send(HttpMethod.PUT, "/api/v1/policies/list-b", install(KIND, MAIN));
    send(HttpMethod.PUT, "/api/v1/policies/list-a", install(KIND, MAIN));

    JsonArray listed = send(HttpMethod.GET, "/api/v1/policies", null).bodyAsJsonObject().getJsonArray("policies");
    JsonObject one = send(HttpMethod.GET, "/api/v1/policies/list-a", null).bodyAsJsonObject();

    assertThat(listed.stream().map(p -> ((JsonObject) p).getString("name")).toList())
        .isSorted().contains("list-a", "list-b");
    assertThat(listed.stream().map(p -> ((JsonObject) p).getString("source")).distinct().toList())
        .containsExactly("api");
    assertThat(one.getString("policy")).isEqualTo("access.main");
    assertThat(one.getJsonObject("explanation").getString("policy")).isEqualTo("access.main");
  }

  @Test
  void a_deleted_policy_is_gone() {
    send(HttpMethod.PUT, "/api/v1/policies/short-lived", install(KIND, MAIN));

    HttpResponse<Buffer> deleted = send(HttpMethod.DELETE, "/api/v1/policies/short-lived", null);

    assertThat(deleted.statusCode()).isEqualTo(204);
    assertThat(send(HttpMethod.POST, "/api/v1/policies/short-lived/eval",
        new JsonObject().put("input", MEMBER_READS)).statusCode()).isEqualTo(404);
  }

  @Test
  void explain_and_test_run_without_installing() {
    JsonObject testFile = new JsonObject().put("path", "access/main_test.yaml").put("source",
        "policy: access.main\ncases:\n  - name: members read\n    input:\n      user: {name: ann, teams: [payments], admin: false}\n"
            + "      action: read\n      resource: {name: ledger, team: payments}\n"
            + "    expect: {decision: allow, reason: team_member}\n");

    HttpResponse<Buffer> explained = send(HttpMethod.POST, "/api/v1/explain", install(KIND, MAIN));
    HttpResponse<Buffer> tested =
        send(HttpMethod.POST, "/api/v1/test", install(KIND, MAIN).put("test_files", new JsonArray().add(testFile)));

    assertThat(explained.statusCode()).isEqualTo(200);
    assertThat(explained.bodyAsJsonObject().getJsonArray("explanations").getJsonObject(0).getString("policy"))
        .isEqualTo("access.main");
    assertThat(tested.statusCode()).isEqualTo(200);
    assertThat(tested.bodyAsJsonObject().getJsonArray("results").getJsonObject(0)
        .getJsonArray("cases").getJsonObject(0).getBoolean("passed")).isTrue();
  }

  @Test
  void a_wrong_method_on_a_policy_path_is_405_with_the_methods_of_its_routes() {
    HttpResponse<Buffer> evalByGet = send(HttpMethod.GET, "/api/v1/policies/x/eval", null);
    HttpResponse<Buffer> policyByPost = send(HttpMethod.POST, "/api/v1/policies/x", new JsonObject());
    HttpResponse<Buffer> listByDelete = send(HttpMethod.DELETE, "/api/v1/policies", null);

    assertError(evalByGet, 405, "GET isn't a method of /api/v1/policies/x/eval", "use POST");
    assertThat(evalByGet.getHeader("Allow")).isEqualTo("POST");
    assertError(policyByPost, 405, "POST isn't a method of /api/v1/policies/x", "use DELETE, GET, PUT");
    assertThat(policyByPost.getHeader("Allow")).isEqualTo("DELETE, GET, PUT");
    assertError(listByDelete, 405, "DELETE isn't a method of /api/v1/policies", "use GET");
    assertThat(listByDelete.getHeader("Allow")).isEqualTo("GET");
  }

  @Test
  void the_metrics_count_evaluations_by_policy_and_decision_and_failures_by_kind() {
    send(HttpMethod.PUT, "/api/v1/policies/counted", install(KIND, MAIN));
    send(HttpMethod.POST, "/api/v1/policies/counted/eval", new JsonObject().put("input", MEMBER_READS));
    send(HttpMethod.POST, "/api/v1/policies/counted/eval", new JsonObject().put("input", new JsonObject().put("x", 1)));

    String metrics = await(client.get(server.healthPort(), "127.0.0.1", "/metrics").send()).bodyAsString();

    assertThat(metrics)
        .contains("svc_pool_evaluations_seconds_count{decision=\"allow\",policy=\"counted\"} 1")
        .contains("svc_pool_failures_total{kind=\"refused\",policy=\"counted\"} 1")
        .contains("svc_pool_instances{state=\"idle\"}")
        .contains("svc_pool_acquire_seconds_count");
  }

  @Test
  void names_never_installed_share_one_series_and_a_deleted_policys_series_go() {
    for (int i = 0; i < 200; i++) {
      assertThat(send(HttpMethod.POST, "/api/v1/policies/made-up-" + i + "/eval",
          new JsonObject().put("input", MEMBER_READS)).statusCode()).isEqualTo(404);
    }
    send(HttpMethod.PUT, "/api/v1/policies/gone-soon", install(KIND, MAIN));
    send(HttpMethod.POST, "/api/v1/policies/gone-soon/eval", new JsonObject().put("input", MEMBER_READS));
    String before = await(client.get(server.healthPort(), "127.0.0.1", "/metrics").send()).bodyAsString();
    send(HttpMethod.DELETE, "/api/v1/policies/gone-soon", null);

    String after = await(client.get(server.healthPort(), "127.0.0.1", "/metrics").send()).bodyAsString();

    assertThat(before).contains("svc_pool_evaluations_seconds_count{decision=\"allow\",policy=\"gone-soon\"} 1");
    assertThat(after).doesNotContain("made-up-").doesNotContain("policy=\"gone-soon\"")
        .containsPattern("svc_pool_failures_total\\{kind=\"no_policy\",policy=\"unknown\"\\} [0-9.]+");
  }

  @Test
  void a_busy_pool_is_503_with_retry_after(Vertx vertx) {
    EnginePool busy = new EnginePool() {
      @Override
      public <T> CompletionStage<T> submit(Function<Pool, T> operation) {
        return CompletableFuture.failedFuture(new BusyException(Duration.ofSeconds(1)));
      }

      @Override
      public void close() {}
    };
    SvcServer saturated = await(SvcServer.create(
        TestServers.config(Map.of(ConfigKey.API_RETRY_AFTER_SECONDS, "7")),
        new DevMesh(TestServers.config().mesh()), registry -> busy).start());
    try {
      HttpResponse<Buffer> answer = TestServers.send(WebClient.create(vertx), HttpMethod.POST, saturated.apiPort(),
          "/api/v1/format", new JsonObject().put("source", "policy a.b: K@1\n"));

      assertThat(answer.statusCode()).isEqualTo(503);
      assertThat(answer.getHeader("Retry-After")).isEqualTo("7");
      assertThat(answer.bodyAsJsonObject().getString("message"))
          .isEqualTo("every instance of the pool stayed busy for 1000 ms");
    } finally {
      await(saturated.stop());
    }
  }
}
