package dev.svc.server.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code /healthz} follows what the server's parts say of their liveness (spec §9). */
class HealthVerticleTest {

  private final Vertx vertx = Vertx.vertx();
  private final AtomicReference<Liveness> liveness = new AtomicReference<>(Liveness.ALIVE);
  private final HealthVerticle health = new HealthVerticle(0, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
      () -> new Readiness(true, "ready"), liveness::get, peer -> Future.succeededFuture(false));

  @AfterEach
  void close() {
    vertx.close().await();
  }

  private HttpResponse<Buffer> healthz() {
    return WebClient.create(vertx).get(health.port(), "127.0.0.1", "/healthz").send().await();
  }

  @Test
  void healthz_is_503_with_the_reason_once_a_part_has_failed_for_good() {
    vertx.deployVerticle(health).await();
    assertThat(healthz().statusCode()).isEqualTo(200);
    assertThat(healthz().bodyAsString()).isEqualTo("{\"status\":\"ok\"}");

    liveness.set(new Liveness(false, "the operator can't start: the operator's watches didn't start"));

    HttpResponse<Buffer> failed = healthz();
    assertThat(failed.statusCode()).isEqualTo(503);
    assertThat(failed.getHeader("Content-Type")).isEqualTo("application/json; charset=utf-8");
    assertThat(failed.bodyAsString()).isEqualTo(
        "{\"status\":\"failed\",\"reason\":\"the operator can't start: the operator's watches didn't start\"}");
  }
}
