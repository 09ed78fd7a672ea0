package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.server.http.CallerAuthHandler;
import dev.svc.server.mesh.Caller;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The auth layer's span {@code Middleware.Auth} (access-server spec §10.3), one per request it judges. */
@ExtendWith(VertxExtension.class)
class AuthSpanTest {

  private final InMemorySpanExporter collected = InMemorySpanExporter.create();
  private final SdkTracerProvider provider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(collected)).build();
  private final FakeMesh mesh = new FakeMesh(FakeMesh.viewer("dana@corp.example"));
  private HttpServer server;
  private WebClient client;

  @BeforeEach
  void start(Vertx vertx) {
    Router router = Router.router(vertx);
    router.route()
        .handler(new CallerAuthHandler(mesh, FakeMesh.CAP, new SimpleMeterRegistry(), Optional.of(provider.get("test"))))
        .handler(ctx -> ctx.response().end());
    router.route().failureHandler(ctx -> ctx.response().setStatusCode(599).end());
    server = await(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
    client = WebClient.create(vertx);
  }

  @AfterEach
  void stop() {
    await(server.close());
    provider.close();
  }

  private SpanData call(Map<String, String> headers) {
    var request = client.get(server.actualPort(), "127.0.0.1", "/api/v1alpha1/login");
    headers.forEach(request::putHeader);
    HttpResponse<?> answer = await(request.send());
    assertThat(answer.statusCode()).isIn(200, 599);
    assertThat(collected.getFinishedSpanItems()).hasSize(1);
    SpanData span = collected.getFinishedSpanItems().get(0);
    assertThat(span.getName()).isEqualTo("Middleware.Auth");
    assertThat(span.getAttributes().get(AttributeKey.stringKey("auth.remote_addr"))).startsWith("127.0.0.1:");
    return span;
  }

  // The attributes but the remote address, whose port the client's system picks.
  private static Attributes withoutRemoteAddr(SpanData span) {
    return span.getAttributes().toBuilder().remove(AttributeKey.stringKey("auth.remote_addr")).build();
  }

  @Test
  void an_admitted_caller_is_a_successful_span_with_its_username() {
    SpanData span = call(Map.of());

    assertThat(withoutRemoteAddr(span)).isEqualTo(Attributes.builder()
        .put("auth.path", "/api/v1alpha1/login").put("auth.username", "dana").put("auth.success", true).build());
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
  }

  @Test
  void a_refused_caller_is_an_error_span_with_the_reason_and_status() {
    mesh.whoIs = Future.succeededFuture(new Caller("dana@corp.example", List.of(), Map.of()));

    SpanData span = call(Map.of());

    assertThat(withoutRemoteAddr(span)).isEqualTo(Attributes.builder()
        .put("auth.path", "/api/v1alpha1/login").put("auth.username", "dana").put("auth.success", false)
        .put("auth.reject_reason", "no_capability_rules").put("auth.status_code", 403L).build());
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(span.getStatus().getDescription()).isEqualTo("User not authorized");
  }

  @Test
  void a_failed_who_is_and_the_public_ingress_have_no_username() {
    mesh.whoIs = Future.failedFuture(new IllegalStateException("tailscaled is gone"));
    assertThat(call(Map.of()).getAttributes().get(AttributeKey.stringKey("auth.reject_reason")))
        .isEqualTo("whois_failed");
    collected.reset();

    SpanData funnel = call(Map.of("Tailscale-Funnel-Request", "?1"));

    assertThat(withoutRemoteAddr(funnel)).isEqualTo(Attributes.builder()
        .put("auth.path", "/api/v1alpha1/login").put("auth.username", "").put("auth.success", false)
        .put("auth.reject_reason", "funnel_not_allowed").put("auth.status_code", 403L).build());
  }
}
