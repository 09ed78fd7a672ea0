package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.server.config.ConfigKey;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.mesh.tailnet.NodeLogin;
import dev.svc.server.testkit.FakeTailscaled;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Each who-is call to the daemon is a client span in the trace of the request it admits. */
@ExtendWith(VertxExtension.class)
class WhoIsSpanTest {

  @Test
  void the_who_is_of_a_request_is_exported_as_a_span(Vertx vertx) {
    Map<String, String> received = new ConcurrentHashMap<>();
    HttpServer collector = TelemetryTest.collector(vertx, received);
    FakeTailscaled daemon = await(FakeTailscaled.start(vertx)).running()
        .peer("100.101.1.2", "ann@corp.example", List.of(), "{\"svc.dev/cap/svc\":[{\"role\":\"view\",\"period\":\"1h\"}]}")
        .everyLoopbackFrom("100.101.1.2");
    SvcConfig config = TestServers.config(Map.of(ConfigKey.MESH_MODE, "external",
        ConfigKey.MESH_SOCKET, daemon.socket().toString(), ConfigKey.OTEL_ENDPOINT, TelemetryTest.grpcEndpoint(collector)));
    SvcServer server = await(SvcServer.create(config, SvcServer.mesh(config.mesh(), new NodeLogin("", false), Map.of()),
        TestServers::oneEngine).start());
    try {
      assertThat(await(WebClient.create(vertx).post(server.apiPort(), "127.0.0.1", "/api/v1/format")
          .putHeader("Content-Type", "application/json")
          .sendJsonObject(new JsonObject().put("source", "policy a.b: K@1\n"))).statusCode()).isEqualTo(200);
    } finally {
      await(server.stop());
      await(daemon.close());
    }

    assertThat(received.get(TelemetryTest.TRACES)).contains("/api/v1/format").contains("/localapi/v0/whois");
  }
}
