package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.server.config.ConfigKey;
import dev.svc.server.mesh.DevMesh;
import dev.svc.server.telemetry.Telemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The server's spans of start-up and of the sign-in API's Kubernetes work (access-server spec §10.3),
 * kept in memory: {@code Mesh.connect} with where callers reach the API, and one {@code SvcClient.*}
 * span, with no attributes but a failure, under each endpoint's span; and an evaluation's engine span
 * under its request's where the event loop started it after its turn.
 */
@ExtendWith(VertxExtension.class)
class ServerSpansTest {

  private final InMemorySpanExporter collected = InMemorySpanExporter.create();
  private final FakeMesh mesh = new FakeMesh(FakeMesh.viewer("dana@corp.example"));
  private SvcServer server;
  private WebClient client;

  @BeforeEach
  void start(Vertx vertx) {
    server = await(SvcServer.create(TestServers.config(Map.of(
        ConfigKey.CLUSTER_INFO_API_ENDPOINT, "https://k8s.corp.example:6443")), mesh, TestServers::oneEngine,
        collectingTelemetry()).withoutOperator().start());
    client = WebClient.create(vertx);
  }

  // Telemetry whose spans end up in `collected`.
  private Telemetry collectingTelemetry() {
    return Telemetry.over(OpenTelemetrySdk.builder()
        .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(collected)).build())
        .build());
  }

  @AfterEach
  void stop() {
    await(server.stop());
  }

  private int call(HttpMethod method, String path) {
    return await(client.request(method, server.apiPort(), "127.0.0.1", path).send()).statusCode();
  }

  private List<SpanData> named(String name) {
    return collected.getFinishedSpanItems().stream().filter(span -> span.getName().equals(name)).toList();
  }

  // The one span called `name`, asserted a child of the one called `parent`.
  private SpanData child(String name, String parent) {
    assertThat(named(name)).hasSize(1);
    assertThat(named(parent)).hasSize(1);
    SpanData span = named(name).get(0);
    assertThat(span.getParentSpanId()).isEqualTo(named(parent).get(0).getSpanId());
    assertThat(span.getTraceId()).isEqualTo(named(parent).get(0).getTraceId());
    return span;
  }

  @Test
  void an_evaluation_on_the_event_loop_started_after_its_turn_is_a_child_span_of_its_request(Vertx vertx) {
    SvcServer onLoop = await(SvcServer.create(TestServers.config(Map.of(ConfigKey.ENGINE_LOOP_EVAL_BUDGET, "100ms")),
        mesh, TestServers::oneEngine, collectingTelemetry()).withoutOperator().start());
    try {
      assertThat(TestServers.send(client, HttpMethod.PUT, onLoop.apiPort(), "/api/v1/policies/access",
          PolicyApiTest.install(PolicyApiTest.file("kind.sigil"), PolicyApiTest.file("access/main.sigil"))).statusCode())
          .isEqualTo(201);
      long lane = PolicyApiTest.laneEvaluations(client, onLoop);

      assertThat(TestServers.send(client, HttpMethod.POST, onLoop.apiPort(), "/api/v1/policies/access/eval",
          new JsonObject().put("input", PolicyApiTest.MEMBER_READS)).bodyAsJsonObject().getString("decision"))
          .isEqualTo("allow");

      assertThat(PolicyApiTest.laneEvaluations(client, onLoop)).as("evaluated on the loop").isEqualTo(lane);
      assertThat(child("engine eval", "POST").getStatus().getStatusCode())
          .isEqualTo(StatusCode.UNSET);
    } finally {
      await(onLoop.stop());
    }
  }

  @Test
  void connecting_the_mesh_is_a_root_span_with_the_apis_url_name_port_and_protocol() {
    assertThat(named("Mesh.connect")).hasSize(1);
    SpanData connect = named("Mesh.connect").get(0);

    assertThat(connect.getParentSpanContext().isValid()).isFalse();
    assertThat(connect.getAttributes().asMap()).isEqualTo(Attributes.builder()
        .put("mesh.url", "http://127.0.0.1:" + server.apiPort()).put("mesh.dns_name", "127.0.0.1")
        .put("mesh.port", (long) server.apiPort()).put("mesh.protocol", "http").build().asMap());
    assertThat(connect.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
  }

  @Test
  void each_sign_in_endpoints_kubernetes_work_is_a_client_span_without_attributes_under_the_endpoints() {
    assertThat(call(HttpMethod.POST, "/api/v1alpha1/login")).isEqualTo(202);
    assertThat(call(HttpMethod.GET, "/api/v1alpha1/login")).isEqualTo(202);
    assertThat(call(HttpMethod.GET, "/api/v1alpha1/kubeconfig")).isEqualTo(202);
    assertThat(call(HttpMethod.POST, "/api/v1alpha1/logout")).isEqualTo(200);

    for (SpanData span : List.of(child("SvcClient.NewSignIn", "SvcServer.login"),
        child("SvcClient.GetSignIn", "SvcServer.getLogin"),
        child("SvcClient.GetKubeconfig", "SvcServer.getKubeconfig"),
        child("SvcClient.DeleteSignIn", "SvcServer.logout"))) {
      assertThat(span.getAttributes().isEmpty()).as(span.getName()).isTrue();
      assertThat(span.getStatus().getStatusCode()).as(span.getName()).isEqualTo(StatusCode.UNSET);
      assertThat(span.getEvents()).as(span.getName()).isEmpty();
    }
  }

  @Test
  void a_failed_kubernetes_call_is_an_error_client_span_with_the_exception() {
    // Not signed in (spec §4.4).
    assertThat(call(HttpMethod.GET, "/api/v1alpha1/login")).isEqualTo(401);

    SpanData span = child("SvcClient.GetSignIn", "SvcServer.getLogin");
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(span.getStatus().getDescription()).isEqualTo("User not signed in");
    assertThat(span.getEvents()).singleElement().satisfies(event -> {
      assertThat(event.getName()).isEqualTo("exception");
      assertThat(event.getAttributes().get(AttributeKey.stringKey("exception.message"))).isEqualTo("User not signed in");
    });
    assertThat(span.getAttributes().isEmpty()).isTrue();
  }

  @Test
  void a_mesh_that_cant_give_the_api_a_listener_ends_mesh_connect_as_an_error() {
    SdkTracerProvider provider = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(collected)).build();
    Span span = provider.get("test").spanBuilder("Mesh.connect").startSpan();

    SvcServer.meshConnected(span, new DevMesh(TestServers.config().mesh()), false,
        Future.failedFuture(new IllegalStateException("tailscaled doesn't answer")));

    SpanData failed = collected.getFinishedSpanItems().get(collected.getFinishedSpanItems().size() - 1);
    assertThat(failed.getName()).isEqualTo("Mesh.connect");
    assertThat(failed.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(failed.getStatus().getDescription()).isEqualTo("the API couldn't listen on the mesh");
    assertThat(failed.getEvents()).singleElement().satisfies(event -> assertThat(
        event.getAttributes().get(AttributeKey.stringKey("exception.message"))).isEqualTo("tailscaled doesn't answer"));
    assertThat(failed.getAttributes().isEmpty()).isTrue();
    provider.close();
  }
}
