package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.server.mesh.Caller;
import dev.svc.server.telemetry.LogFields;
import dev.svc.server.testkit.LogCapture;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The log lines of the API (access-server spec §10.2): the sign-in API's access log, none for the
 * engine API, and the auth layer's warning when it refuses a caller.
 */
@ExtendWith(VertxExtension.class)
class AccessLogTest {

  private static final String CAP = "svc.dev/cap/svc";
  private static final String NO_TRACE = "00000000000000000000000000000000";
  private static final String NO_SPAN = "0000000000000000";
  private static final LogCapture HTTP_LOGS = LogCapture.of("dev.svc.server.http");

  private static FakeMesh mesh;
  private static SvcServer server;
  private static WebClient client;

  @BeforeAll
  static void start(Vertx vertx) {
    mesh = new FakeMesh(dana());
    server = await(SvcServer.create(TestServers.config(Map.of()), mesh, TestServers::oneEngine).withoutOperator().start());
    client = WebClient.create(vertx);
  }

  @AfterAll
  static void stop() {
    HTTP_LOGS.close();
    await(server.stop());
  }

  @AfterEach
  void forget() {
    mesh.whoIs = Future.succeededFuture(dana());
    HTTP_LOGS.clear();
  }

  private static Caller dana() {
    JsonNode rule = JsonNodeFactory.instance.objectNode().put("role", "view").put("period", "1h");
    return new Caller("dana@corp.example", List.of(), Map.of(CAP, List.of(rule)));
  }

  private static List<LogRecord> of(String logger) {
    return HTTP_LOGS.records().stream().filter(r -> r.getLoggerName().equals(logger)).toList();
  }

  private static LogRecord awaitOne(String logger) {
    Awaitility.await().until(() -> !of(logger).isEmpty());
    assertThat(of(logger)).hasSize(1);
    return of(logger).get(0);
  }

  private static Map<String, Object> fields(LogRecord record) {
    return ((LogFields) record.getParameters()[0]).values();
  }

  @Test
  void a_sign_in_api_request_is_one_info_line_with_the_specs_fields() {
    assertThat(await(client.get(server.apiPort(), "127.0.0.1", "/api/v1alpha1/cluster-info")
        .putHeader("X-Request-Id", "req-42").send()).statusCode()).isEqualTo(200);

    LogRecord access = awaitOne("dev.svc.server.http.AccessLog");
    assertThat(access.getLevel()).isEqualTo(Level.INFO);
    assertThat(access.getMessage()).isEqualTo("access");
    Map<String, Object> fields = fields(access);
    assertThat(new ArrayList<>(fields.keySet()))
        .containsExactly("method", "path", "status", "latency", "trace_id", "span_id", "request_id");
    assertThat(fields).containsEntry("method", "GET").containsEntry("path", "/api/v1alpha1/cluster-info")
        .containsEntry("status", 200).containsEntry("trace_id", NO_TRACE).containsEntry("span_id", NO_SPAN)
        .containsEntry("request_id", "req-42");
    assertThat((Double) fields.get("latency")).isPositive();
  }

  @Test
  void an_auth_rejection_is_a_warning_with_username_reason_and_status_and_is_in_the_access_log() {
    mesh.whoIs = Future.succeededFuture(new Caller("dana@corp.example", List.of(), Map.of()));

    assertThat(await(client.post(server.apiPort(), "127.0.0.1", "/api/v1alpha1/login").send()).statusCode())
        .isEqualTo(403);

    LogRecord access = awaitOne("dev.svc.server.http.AccessLog");
    assertThat(fields(access)).containsEntry("status", 403).containsEntry("request_id", "");
    LogRecord rejected = awaitOne("dev.svc.server.http.CallerAuthHandler");
    assertThat(rejected.getLevel()).isEqualTo(Level.WARNING);
    assertThat(rejected.getMessage()).isEqualTo("auth rejected");
    assertThat(fields(rejected)).isEqualTo(Map.of("username", "dana", "reject_reason", "no_capability_rules",
        "status_code", 403));
    assertThat(new ArrayList<>(fields(rejected).keySet())).containsExactly("username", "reject_reason", "status_code");
  }

  @Test
  void engine_api_requests_are_not_in_the_access_log() {
    assertThat(await(client.post(server.apiPort(), "127.0.0.1", "/api/v1/format")
        .putHeader("Content-Type", "application/json")
        .sendJsonObject(new JsonObject().put("source", "policy a.b: K@1\n"))).statusCode()).isEqualTo(200);
    // A sign-in API request after it: once its line is in, the engine request's would be too.
    assertThat(await(client.get(server.apiPort(), "127.0.0.1", "/api/v1alpha1/cluster-info").send()).statusCode())
        .isEqualTo(200);

    LogRecord access = awaitOne("dev.svc.server.http.AccessLog");
    assertThat(fields(access)).containsEntry("path", "/api/v1alpha1/cluster-info");
  }
}
