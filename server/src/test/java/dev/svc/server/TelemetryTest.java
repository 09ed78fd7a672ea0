package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.server.config.ConfigKey;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.telemetry.Telemetry;
import dev.svc.server.telemetry.Telemetry.Protocol;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * OTLP export (access-server spec §10.1) to collectors that record what they receive: the endpoint's
 * text picks the transport, spans and log records are exported, metrics are not, and whatever is
 * pending is sent by the time the server stops.
 */
@ExtendWith(VertxExtension.class)
class TelemetryTest {

  static final String TRACES = "/opentelemetry.proto.collector.trace.v1.TraceService/Export";
  private static final String LOGS = "/opentelemetry.proto.collector.logs.v1.LogsService/Export";
  private static final String METRICS = "/opentelemetry.proto.collector.metrics.v1.MetricsService/Export";

  // A gRPC server over cleartext HTTP/2 that answers every export with an empty success.
  static HttpServer collector(Vertx vertx, Map<String, String> received) {
    return await(vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
      received.merge(request.path(), body.toString(StandardCharsets.ISO_8859_1), String::concat);
      request.response()
          .putHeader("content-type", "application/grpc")
          .putTrailer("grpc-status", "0")
          .end(Buffer.buffer(new byte[5]));
    })).listen(0, "127.0.0.1"));
  }

  /**
   * The endpoint of a gRPC {@code collector}. The collector listens on a free port, not 4317: the
   * transport rule reads the whole text, so 4317 in the path picks gRPC (whose exporter replaces the
   * path with the service's).
   */
  static String grpcEndpoint(HttpServer collector) {
    return "http://127.0.0.1:" + collector.actualPort() + "/4317";
  }

  // An OTLP/HTTP collector: protobuf bodies posted to /v1/traces and /v1/logs, each answered with an empty success.
  private static HttpServer httpCollector(Vertx vertx, Map<String, String> received) {
    return await(vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
      received.merge(request.method() + " " + request.path() + " " + request.getHeader("Content-Type"),
          body.toString(StandardCharsets.ISO_8859_1), String::concat);
      request.response().putHeader("Content-Type", "application/x-protobuf").end();
    })).listen(0, "127.0.0.1"));
  }

  private static void callTheApis(Vertx vertx, SvcServer server) {
    WebClient client = WebClient.create(vertx);
    await(client.post(server.apiPort(), "127.0.0.1", "/api/v1/format")
        .putHeader("Content-Type", "application/json")
        .sendJsonObject(new JsonObject().put("source", "policy a.b: K@1\n")));
    await(client.post(server.apiPort(), "127.0.0.1", "/api/v1alpha1/login").send());
    await(client.get(server.apiPort(), "127.0.0.1", "/api/v1alpha1/kubeconfig").send());
  }

  @Test
  void an_endpoint_holding_4317_is_grpc_4318_http_and_any_other_nothing() {
    assertThat(Protocol.of(URI.create("https://localhost:4317"))).contains(Protocol.GRPC);
    assertThat(Protocol.of(URI.create("http://collector:4318"))).contains(Protocol.HTTP);
    assertThat(Protocol.of(URI.create("http://collector.example:14318"))).contains(Protocol.HTTP);
    assertThat(Protocol.of(URI.create("http://collector:9000"))).isEmpty();
  }

  @Test
  void over_grpc_spans_and_logs_reach_the_collector_by_the_time_the_server_stops_and_metrics_dont(Vertx vertx) {
    Map<String, String> received = new ConcurrentHashMap<>();
    HttpServer collector = collector(vertx, received);
    SvcServer server = await(SvcServer.start(TestServers.config(
        Map.of(ConfigKey.OTEL_ENDPOINT, grpcEndpoint(collector)))));
    callTheApis(vertx, server);

    await(server.stop());

    assertThat(received).containsOnlyKeys(TRACES, LOGS);
    assertThat(received.get(TRACES)).contains("/api/v1/format").contains("engine format");
    // The sign-in API's endpoints are spans of their own, with the spec's attributes (§10.3); the
    // operator may have provisioned the sign-in before the kubeconfig call, so its status may be either.
    assertThat(received.get(TRACES)).contains("SvcServer.login").contains("login.status").contains("success")
        .contains("SvcServer.getKubeconfig").contains("kubeconfig.status").contains("/api/v1alpha1/login")
        .contains("SvcClient.NewSignIn").contains("SvcClient.GetKubeconfig");
    // So is start-up's connection to the mesh (ServerSpansTest has its attributes' values).
    assertThat(received.get(TRACES)).contains("Mesh.connect").contains("mesh.url").contains("mesh.dns_name")
        .contains("mesh.port").contains("mesh.protocol");
    // Stopping is a span too, ended before the export's last flush.
    assertThat(received.get(TRACES)).contains("server.shutdown").contains("shutdown.health_ok")
        .contains("shutdown.mesh_ok").doesNotContain("shutdown.health_err").doesNotContain("shutdown.mesh_err");
    assertThat(received.get(LOGS)).contains("dev.svc.server.SvcServer");
  }

  @Test
  void over_http_spans_and_logs_are_posted_as_protobuf_to_their_paths_and_metrics_arent(Vertx vertx) {
    Map<String, String> received = new ConcurrentHashMap<>();
    HttpServer collector = httpCollector(vertx, received);
    SvcServer server = await(SvcServer.start(TestServers.config(
        Map.of(ConfigKey.OTEL_ENDPOINT, "http://127.0.0.1:" + collector.actualPort() + "/4318"))));
    callTheApis(vertx, server);

    await(server.stop());

    String traces = "POST /v1/traces application/x-protobuf";
    String logs = "POST /v1/logs application/x-protobuf";
    assertThat(received).containsOnlyKeys(traces, logs);
    assertThat(received.get(traces)).contains("/api/v1/format").contains("SvcServer.login");
    assertThat(received.get(logs)).contains("dev.svc.server.SvcServer");
  }

  @Test
  void an_endpoint_of_neither_transport_exports_nothing() {
    assertThat(Telemetry.start(new SvcConfig.Otel(Optional.of(URI.create("http://collector:9000")), true))).isEmpty();
  }

  @Test
  void without_an_endpoint_nothing_is_exported() {
    assertThat(Telemetry.start(new SvcConfig.Otel(Optional.empty(), true))).isEmpty();
  }
}
