package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.awaitility.Awaitility.await;

import dev.svc.server.mesh.Caller;
import dev.svc.server.mesh.GrantRule;
import dev.svc.server.mesh.MeshStatus;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Readiness while the server comes up and as the mesh changes; a graceful stop. */
@ExtendWith(VertxExtension.class)
class LifecycleTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);
  private static final JsonObject FORMAT = new JsonObject().put("source", "policy   a.b:K@1");

  private static Caller granted() {
    return new Caller("dana@corp.example", List.of(), Map.of("svc.dev/cap/svc",
        List.of(new GrantRule("view", "1h", 0).toJson())));
  }

  private static JsonObject ready(WebClient client, SvcServer server, int status) {
    HttpResponse<Buffer> response = await(client.get(server.healthPort(), "127.0.0.1", "/ready").send());
    assertThat(response.statusCode()).isEqualTo(status);
    return response.bodyAsJsonObject();
  }

  @Test
  void readiness_waits_for_the_engines_and_follows_the_mesh(Vertx vertx) throws InterruptedException {
    WebClient client = WebClient.create(vertx);
    FakeMesh mesh = new FakeMesh(granted());
    CountDownLatch enginesMayStart = new CountDownLatch(1);
    HeldEngines engines = new HeldEngines();
    SvcServer server = SvcServer.create(TestServers.config(), mesh, registry -> {
      awaitLatch(enginesMayStart);
      return engines;
    });
    Future<SvcServer> started = server.start();
    try {
      await().atMost(PATIENCE).ignoreExceptions().until(() -> server.healthPort() > 0);

      assertThat(ready(client, server, 503))
          .isEqualTo(new JsonObject().put("status", "not ready").put("reason", "policy engine not started"));
      enginesMayStart.countDown();
      await(started);
      assertThat(ready(client, server, 200))
          .isEqualTo(new JsonObject().put("status", "ready").put("reason", "mesh node is in Running state"));
      mesh.status = new MeshStatus(false, "mesh node is in NeedsLogin state");
      assertThat(ready(client, server, 503).getString("reason")).isEqualTo("mesh node is in NeedsLogin state");
    } finally {
      enginesMayStart.countDown();
      await(server.stop());
    }
  }

  @Test
  void a_stop_refuses_new_connections_and_lets_the_request_in_flight_finish(Vertx vertx) {
    WebClient client = WebClient.create(vertx);
    HeldEngines engines = new HeldEngines();
    SvcServer server = await(SvcServer.create(TestServers.config(), new FakeMesh(granted()), registry -> engines).start());
    int port = server.apiPort();
    Future<HttpResponse<Buffer>> inFlight = client.post(port, "127.0.0.1", "/api/v1/format")
        .putHeader("Content-Type", "application/json").sendJsonObject(FORMAT);
    await().atMost(PATIENCE).until(() -> engines.waiting() == 1);

    Future<Void> stopped = server.stop();
    Throwable refused = TestServers.refusedConnection(vertx, port);
    assertThat(stopped.isComplete()).as("the stop waits for the request in flight").isFalse();
    engines.release();

    HttpResponse<Buffer> answer = await(inFlight);
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.bodyAsJsonObject().getString("source")).isEqualTo("policy a.b: K@1\n");
    await(stopped);
    assertThat(refused).hasMessageContaining("Connection refused");
  }

  @Test
  void the_api_serves_new_connections_on_an_event_loop_per_processor(Vertx vertx) throws IOException {
    assumeTrue(SvcServer.API_EVENT_LOOPS >= 2, "one processor: the API has one event loop");
    FakeMesh mesh = new FakeMesh(granted());
    try (ServerSocket probe = new ServerSocket(0)) {
      mesh.port = probe.getLocalPort();
    }
    HeldEngines engines = new HeldEngines();
    SvcServer server = await(SvcServer.create(TestServers.config(), mesh, registry -> engines).start());
    try {
      List<Future<HttpResponse<Buffer>>> answers = new ArrayList<>();
      for (int i = 0; i < SvcServer.API_EVENT_LOOPS; i++) {
        // A client of its own per request: each request comes on a new connection.
        WebClient client = WebClient.create(vertx, new WebClientOptions().setKeepAlive(false));
        answers.add(client.post(mesh.port, "127.0.0.1", "/api/v1/format")
            .putHeader("Content-Type", "application/json").sendJsonObject(FORMAT));
      }
      await().atMost(PATIENCE).until(() -> engines.waiting() == SvcServer.API_EVENT_LOOPS);

      assertThat(engines.callerThreads()).as("the event loops that read the requests")
          .hasSize(SvcServer.API_EVENT_LOOPS).allMatch(name -> name.startsWith("vert.x-eventloop-thread-"));
      engines.release();
      for (Future<HttpResponse<Buffer>> answer : answers) {
        assertThat(await(answer).statusCode()).isEqualTo(200);
      }
    } finally {
      engines.release();
      await(server.stop());
    }
    assertThat(TestServers.refusedConnection(vertx, mesh.port)).hasMessageContaining("Connection refused");
  }

  @Test
  void the_api_listens_on_every_address_the_mesh_names_and_a_stop_closes_them_all(Vertx vertx) throws IOException {
    FakeMesh mesh = new FakeMesh(granted());
    mesh.hosts = List.of("127.0.0.1", "::1");
    try (ServerSocket probe = new ServerSocket(0)) {
      mesh.port = probe.getLocalPort();
    }
    SvcServer server = await(SvcServer.create(TestServers.config(), mesh, TestServers::oneEngine).start());
    // The JDK's client: Vert.x's writes an IPv6 address into the Host header without its brackets.
    java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
    try {
      for (String url : List.of("http://127.0.0.1:" + mesh.port, "http://[::1]:" + mesh.port)) {
        java.net.http.HttpResponse<String> answer = client.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(url + "/api/v1/format")).header("Content-Type", "application/json")
            .POST(java.net.http.HttpRequest.BodyPublishers.ofString(FORMAT.encode())).build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(url + " " + answer.body()).isEqualTo(200);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } finally {
      await(server.stop());
    }
    for (String host : mesh.hosts) {
      assertThat(TestServers.refusedConnection(vertx, host, mesh.port)).as(host).hasMessageContaining("Connection refused");
    }
  }

  @Test
  void the_event_loop_property_sets_the_count_of_the_apis_event_loops() {
    int most = VertxOptions.DEFAULT_EVENT_LOOP_POOL_SIZE;
    assertThat(SvcServer.apiEventLoops(null)).isEqualTo(SvcServer.API_EVENT_LOOPS);
    assertThat(SvcServer.apiEventLoops("1")).isEqualTo(1);
    assertThat(SvcServer.apiEventLoops(" " + most + " ")).isEqualTo(most);
    for (String refused : List.of("0", "-1", Integer.toString(most + 1), "two", "", "99999999999")) {
      assertThatThrownBy(() -> SvcServer.apiEventLoops(refused))
          .isInstanceOfSatisfying(StartException.class, e -> {
            assertThat(e).hasMessage("-Dsvc.api.eventLoops is `" + refused
                + "`, not a number of event loops from 1 to " + most);
            assertThat(e.help()).isEqualTo("leave it out for one per processor ("
                + SvcServer.API_EVENT_LOOPS + "), or give a whole number from 1 to " + most);
          });
    }
  }

  @Test
  void a_failed_start_stops_what_started_and_says_why() {
    SvcServer server = SvcServer.create(TestServers.config(), new FakeMesh(granted()), registry -> {
      throw new IllegalStateException("no engine today");
    });

    Throwable failure = TestServers.failure(server.start());

    assertThat(failure).isInstanceOf(IllegalStateException.class).hasMessage("no engine today");
    assertThat(TestServers.failure(server.stop())).isNull();
  }

  private static void awaitLatch(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
