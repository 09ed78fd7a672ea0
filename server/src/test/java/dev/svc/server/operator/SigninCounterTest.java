package dev.svc.server.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The compact sign-in counter answers scrapes exactly as the Micrometer counter per user it replaces did. */
class SigninCounterTest {

  private final PrometheusMeterRegistry micrometer = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final PrometheusMeterRegistry compact = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final SigninCounter counter = new SigninCounter(new ManualTime(Instant.parse("2025-03-04T09:15:00Z")));

  SigninCounterTest() {
    compact.getPrometheusRegistry().register(counter);
  }

  private void signedIn(String role, String username) {
    Counter.builder("svc.user.signins").tag("cluster_role", role).tag("username", username)
        .description("Sign-ins provisioned, extensions included").register(micrometer).increment();
    counter.increment(role, username);
  }

  @Test
  void counts_per_role_and_user_read_as_micrometer_s_counter() {
    signedIn("view", "dana");
    signedIn("view", "dana");
    signedIn("edit", "dana");
    signedIn("view", "bo");

    for (String format : List.of("text/plain; version=0.0.4; charset=utf-8",
        "application/openmetrics-text; version=1.0.0; charset=utf-8")) {
      assertThat(compact.scrape(format)).isEqualTo(micrometer.scrape(format));
      assertThat(compact.scrape(format, OperatorMetrics.PROMETHEUS_NAMES))
          .isEqualTo(micrometer.scrape(format, OperatorMetrics.PROMETHEUS_NAMES));
    }
    assertThat(compact.scrape()).isEqualTo("""
        # HELP svc_user_signins_total Sign-ins provisioned, extensions included
        # TYPE svc_user_signins_total counter
        svc_user_signins_total{cluster_role="edit",username="dana"} 1.0
        svc_user_signins_total{cluster_role="view",username="bo"} 1.0
        svc_user_signins_total{cluster_role="view",username="dana"} 2.0
        """);
  }
}
