package dev.svc.server.operator;

import static dev.svc.server.operator.OperatorFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The operator's meters (spec §9) and its SvcOperator.Reconcile spans (spec §10.3). */
@EnableKubernetesMockClient(crud = true)
class OperatorTelemetryTest {

  KubernetesClient client;
  private final InMemorySpanExporter collected = InMemorySpanExporter.create();
  private final SdkTracerProvider tracing = SdkTracerProvider.builder()
      .addSpanProcessor(SimpleSpanProcessor.create(collected)).build();
  private OperatorFixture operator;

  // The spans ended so far, oldest first.
  private List<SpanData> ended() {
    return collected.getFinishedSpanItems();
  }

  @AfterEach
  void stop() {
    operator.close();
    tracing.close();
  }

  @Test
  void each_reconcile_is_a_span_with_its_name_operation_outcome_and_requeue() {
    operator = new OperatorFixture(client, Set.of(), OperatorFixture.NEVER, OperatorFixture.NEVER,
        tracing.get("test")).start();
    operator.login("dana", "view", "45m0s", T0);
    operator.awaitProvisioned("svc-user-dana", T0.plus(Duration.ofMinutes(45)));

    SpanData provision = await().until(() -> ended().stream()
        .filter(span -> "provision".equals(span.getAttributes().get(AttributeKey.stringKey("reconcile.operation"))))
        .findFirst().orElse(null), span -> span != null);

    assertThat(provision.getName()).isEqualTo("SvcOperator.Reconcile");
    assertThat(provision.getAttributes().get(AttributeKey.stringKey("reconcile.name"))).isEqualTo("svc-user-dana");
    assertThat(provision.getAttributes().get(AttributeKey.stringKey("reconcile.namespace"))).isEqualTo("svc-dev");
    assertThat(provision.getAttributes().get(AttributeKey.stringKey("reconcile.username"))).isEqualTo("dana");
    assertThat(provision.getAttributes().get(AttributeKey.booleanKey("reconcile.success"))).isTrue();
    assertThat(provision.getAttributes().get(AttributeKey.longKey("reconcile.requeue_in_ms")))
        .isEqualTo(Duration.ofMinutes(45).toMillis());
    assertThat(provision.getAttributes().get(AttributeKey.longKey("reconcile.duration_ms"))).isNotNull();
    assertThat(provision.getEvents()).extracting(EventData::getName).containsExactly("not_provisioned");

    operator.time.advance(Duration.ofMinutes(45));
    operator.awaitGone("svc-user-dana");
    await().until(() -> ended().stream().anyMatch(span ->
        "deprovision".equals(span.getAttributes().get(AttributeKey.stringKey("reconcile.operation")))
            && span.getEvents().stream().anyMatch(event -> event.getName().equals("signin_expired"))));
    await().until(() -> ended().stream().anyMatch(span ->
        "deprovision_not_found".equals(span.getAttributes().get(AttributeKey.stringKey("reconcile.operation")))));
  }

  @Test
  void metrics_and_controller_metrics_carry_the_operator_meters() {
    operator = new OperatorFixture(client).start();
    operator.login("dana", "view", "45m0s", T0);
    operator.awaitProvisioned("svc-user-dana", T0.plus(Duration.ofMinutes(45)));

    String all = operator.registry.scrape();
    String controller = operator.registry.scrape("text/plain; version=0.0.4; charset=utf-8",
        OperatorMetrics.PROMETHEUS_NAMES);

    for (String text : List.of(all, controller)) {
      assertThat(text)
          .contains("svc_user_signins_total{cluster_role=\"view\",username=\"dana\"} 1.0")
          .contains("svc_active_user_sessions{cluster_role=\"view\"} 1.0")
          .containsPattern("svc_reconciler_duration_seconds_count\\{name=\"svc-user-dana\",namespace=\"svc-dev\","
              + "reconciler=\"user\"} [1-9]")
          .contains("svc_reconciler_errors_total{reconciler=\"user\"} 0.0")
          .contains("svc_reconciler_queue_depth 0.0")
          .contains("svc_operator_leader 0.0");
    }
    operator.registry.counter("svc.login.attempts").increment();
    assertThat(operator.registry.scrape()).contains("svc_login_attempts_total");
    assertThat(operator.registry.scrape("text/plain; version=0.0.4; charset=utf-8", OperatorMetrics.PROMETHEUS_NAMES))
        .doesNotContain("svc_login_attempts_total");
  }

  @Test
  void a_gone_sign_in_leaves_no_reconcile_series() {
    operator = new OperatorFixture(client).start();
    operator.login("dana", "view", "45m0s", T0);
    operator.awaitProvisioned("svc-user-dana", T0.plus(Duration.ofMinutes(45)));
    assertThat(operator.registry.scrape()).contains("name=\"svc-user-dana\"");

    operator.time.advance(Duration.ofMinutes(45));
    operator.awaitGone("svc-user-dana");

    await().untilAsserted(() -> assertThat(operator.registry.scrape())
        .doesNotContain("name=\"svc-user-dana\"")
        .contains("svc_user_signins_total{cluster_role=\"view\",username=\"dana\"} 1.0"));
  }
}
