package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.server.config.ConfigKey;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.telemetry.Telemetry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** OTLP gRPC export to a collector that records what it receives. */
@ExtendWith(VertxExtension.class)
class TelemetryTest {

  static final String TRACES = "/opentelemetry.proto.collector.trace.v1.TraceService/Export";
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

  @Test
  void spans_of_api_requests_and_the_metrics_reach_the_collector_by_the_time_the_server_stops(Vertx vertx) {
    Map<String, String> received = new ConcurrentHashMap<>();
    HttpServer collector = collector(vertx, received);
    SvcServer server = await(SvcServer.start(TestServers.config(
        Map.of(ConfigKey.OTEL_ENDPOINT, "127.0.0.1:" + collector.actualPort()))));
    WebClient client = WebClient.create(vertx);
    await(client.post(server.apiPort(), "127.0.0.1", "/api/v1/format")
        .putHeader("Content-Type", "application/json")
        .sendJsonObject(new JsonObject().put("source", "policy a.b: K@1\n")));
    await(client.post(server.apiPort(), "127.0.0.1", "/api/v1alpha1/login").send());
    await(client.get(server.apiPort(), "127.0.0.1", "/api/v1alpha1/kubeconfig").send());

    await(server.stop());

    assertThat(received).containsKeys(TRACES, METRICS);
    assertThat(received.get(TRACES)).contains("/api/v1/format").contains("engine format");
    // The sign-in API's endpoints are spans of their own, with the spec's attributes (§10.3); the
    // operator may have provisioned the sign-in before the kubeconfig call, so its status may be either.
    assertThat(received.get(TRACES)).contains("SvcServer.login").contains("login.status").contains("success")
        .contains("SvcServer.getKubeconfig").contains("kubeconfig.status").contains("/api/v1alpha1/login");
    assertThat(received.get(METRICS)).contains("svc.requests").contains("jvm.memory.used");
  }

  @Test
  void without_an_endpoint_nothing_is_exported() {
    assertThat(Telemetry.start(new SvcConfig.Otel(Optional.empty(), true), new SimpleMeterRegistry())).isEmpty();
  }
}
