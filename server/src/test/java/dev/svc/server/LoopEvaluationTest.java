package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.server.config.ConfigKey;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Evaluations on the API's event loop ({@code engine.loopEvalBudget}) where they differ from those on
 * the pool's threads: a large body goes to the lane of evaluations, and a slow policy holds the loop
 * for the budget only and finishes there (the lane's {@code svc_pool_queue_seconds_count} counts
 * what the lane started). Everything else is the same both ways ({@link PolicyApiOnLoopTest}); the
 * pause of a slow policy and a busy pool are {@link dev.svc.supervisor.Pool#tryEvaluateJson}'s, tested
 * there.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LoopEvaluationTest {

  /** Three lists of 1500 teams nested: billions of comparisons, stopped only by a timeout. */
  private static final JsonObject SLOW = new JsonObject().put("path", "slow/main.sigil").put("source", """
      policy slow.main: Access@1

      when any a in user.teams: (any b in user.teams: (any c in user.teams: a == b and b == c and c == "zz")) {
        allow(reason: team_member)
      }
      """);

  private SvcServer server;
  private WebClient client;

  @BeforeAll
  void start(Vertx vertx) {
    server = await(SvcServer.start(TestServers.config(Map.of(ConfigKey.ENGINE_LOOP_EVAL_BUDGET, "100ms"))));
    client = WebClient.create(vertx);
    install("access", PolicyApiTest.file("access/main.sigil"));
  }

  private void install(String name, JsonObject policy) {
    assertThat(TestServers.send(client, HttpMethod.PUT, server.apiPort(), "/api/v1/policies/" + name,
        PolicyApiTest.install(PolicyApiTest.file("kind.sigil"), policy)).statusCode()).isEqualTo(201);
  }

  @AfterAll
  void stop() {
    await(server.stop());
  }

  private HttpResponse<Buffer> eval(WebClient on, String name, JsonObject body) {
    return TestServers.send(on, HttpMethod.POST, server.apiPort(), "/api/v1/policies/" + name + "/eval", body);
  }

  private long laneEvaluations() {
    return PolicyApiTest.laneEvaluations(client, server);
  }

  private static JsonObject teams(int count) {
    JsonArray teams = new JsonArray();
    for (int i = 0; i < count; i++) {
      teams.add("t" + i);
    }
    JsonObject input = PolicyApiTest.MEMBER_READS.copy();
    return input.put("user", input.getJsonObject("user").copy().put("teams", teams));
  }

  @Test
  void pipelined_evaluations_on_one_connection_are_each_answered_in_order() throws IOException {
    String member = new JsonObject().put("input", PolicyApiTest.MEMBER_READS).encode();
    String outsider = new JsonObject().put("input", teams(1)).encode();
    try (Socket socket = new Socket("127.0.0.1", server.apiPort())) {
      socket.setSoTimeout(10_000);
      // One write: the event loop reads both requests in one turn.
      socket.getOutputStream().write((evalRequest(member) + evalRequest(outsider)).getBytes(StandardCharsets.UTF_8));

      assertThat(new JsonObject(responseBody(socket)).getString("decision")).isEqualTo("allow");
      assertThat(new JsonObject(responseBody(socket)).getString("reason")).isEqualTo("not_member");
    }
  }

  private static String evalRequest(String body) {
    return "POST /api/v1/policies/access/eval HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
  }

  // The body of the next answer on the connection, after checking it is a 200.
  private static String responseBody(Socket socket) throws IOException {
    String answer = TestServers.oneAnswer(socket);
    assertThat(answer).startsWith("HTTP/1.1 200 ");
    return answer.substring(answer.indexOf("\r\n\r\n") + 4);
  }

  @Test
  void a_body_over_16_KiB_is_evaluated_in_the_lane() {
    JsonObject large = new JsonObject().put("input", teams(3000));
    assertThat(large.toBuffer().length()).isGreaterThan(16 << 10);
    long before = laneEvaluations();

    HttpResponse<Buffer> answer = eval(client, "access", large);

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.bodyAsJsonObject().getString("reason")).isEqualTo("not_member");
    assertThat(laneEvaluations()).isEqualTo(before + 1);
  }

  @Test
  void an_own_timeout_within_the_budget_is_answered_canceled_from_the_event_loop() {
    install("slow-own", SLOW);
    long before = laneEvaluations();

    HttpResponse<Buffer> canceled = eval(client, "slow-own", new JsonObject().put("input", teams(1500)).put("timeout_ms", 5));

    assertThat(canceled.statusCode()).isEqualTo(200);
    assertThat(canceled.bodyAsJsonObject().getJsonObject("error").getString("kind")).isEqualTo("canceled");
    assertThat(laneEvaluations()).isEqualTo(before);
  }

  @Test
  void a_slow_policy_holds_the_event_loop_for_the_budget_only_and_then_the_lane_answers(Vertx vertx) {
    install("slow", SLOW); // a policy of its own: the test pauses it for the event loops
    WebClient other = WebClient.create(vertx); // a connection of its own
    long before = laneEvaluations();

    Future<HttpResponse<Buffer>> slow = client.post(server.apiPort(), "127.0.0.1", "/api/v1/policies/slow/eval")
        .putHeader("Content-Type", "application/json")
        .sendBuffer(new JsonObject().put("input", teams(1500)).put("timeout_ms", 3000).toBuffer());
    HttpResponse<Buffer> quick = eval(other, "access", new JsonObject().put("input", PolicyApiTest.MEMBER_READS));

    assertThat(slow.isComplete()).as("another connection's evaluation answered while the slow one runs").isFalse();
    assertThat(quick.bodyAsJsonObject().getString("decision")).isEqualTo("allow");
    HttpResponse<Buffer> stopped = await(slow);
    assertThat(stopped.statusCode()).isEqualTo(200);
    assertThat(stopped.bodyAsJsonObject().getJsonObject("error").getString("kind")).isEqualTo("canceled");
    assertThat(laneEvaluations()).as("the slow one moved to the lane").isEqualTo(before + 1);
  }
}
