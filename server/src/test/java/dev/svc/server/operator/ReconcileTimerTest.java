package dev.svc.server.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The compact reconcile timer answers scrapes exactly as the Micrometer timer per name it replaces did:
 * each case records the same reconciles into both, on clocks that move together, and compares the text.
 */
class ReconcileTimerTest {

  private static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";
  private static final String OPEN_METRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";

  // Micrometer's mock clock starts at 1 ms past the epoch: ours starts there too, so the windows of the
  // maximum start together.
  private final MockClock micrometerClock = new MockClock();
  private final ManualTime time = new ManualTime(Instant.ofEpochMilli(1));
  private final PrometheusMeterRegistry micrometer =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new PrometheusRegistry(), micrometerClock);
  private final PrometheusMeterRegistry compact = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final ReconcileTimer timer = new ReconcileTimer("svc-dev", time);

  ReconcileTimerTest() {
    compact.getPrometheusRegistry().register(timer);
  }

  private void record(String name, Duration took) {
    Timer.builder("svc.reconciler.duration").tag("reconciler", "user").tag("name", name).tag("namespace", "svc-dev")
        .description("Time of one reconcile").register(micrometer).record(took);
    timer.record(name, took);
  }

  private void advance(Duration step) {
    micrometerClock.add(step.toMillis(), TimeUnit.MILLISECONDS);
    time.advance(step);
  }

  private void assertSameScrapes() {
    for (String format : List.of(TEXT, OPEN_METRICS)) {
      assertThat(compact.scrape(format)).isEqualTo(micrometer.scrape(format));
      assertThat(compact.scrape(format, OperatorMetrics.PROMETHEUS_NAMES))
          .isEqualTo(micrometer.scrape(format, OperatorMetrics.PROMETHEUS_NAMES));
    }
  }

  @Test
  void count_sum_and_max_per_name_read_as_micrometer_s_timer() {
    record("svc-user-dana", Duration.ofNanos(1_234_567));
    record("svc-user-dana", Duration.ofMillis(3));
    record("svc-user-bo", Duration.ofSeconds(2).plusNanos(1));
    record("svc-user-zoe", Duration.ZERO);

    assertSameScrapes();
    assertThat(compact.scrape(TEXT)).isEqualTo("""
        # HELP svc_reconciler_duration_seconds Time of one reconcile
        # TYPE svc_reconciler_duration_seconds summary
        svc_reconciler_duration_seconds_count{name="svc-user-bo",namespace="svc-dev",reconciler="user"} 1
        svc_reconciler_duration_seconds_sum{name="svc-user-bo",namespace="svc-dev",reconciler="user"} 2.000000001
        svc_reconciler_duration_seconds_count{name="svc-user-dana",namespace="svc-dev",reconciler="user"} 2
        svc_reconciler_duration_seconds_sum{name="svc-user-dana",namespace="svc-dev",reconciler="user"} 0.004234567
        svc_reconciler_duration_seconds_count{name="svc-user-zoe",namespace="svc-dev",reconciler="user"} 1
        svc_reconciler_duration_seconds_sum{name="svc-user-zoe",namespace="svc-dev",reconciler="user"} 0.0
        # HELP svc_reconciler_duration_seconds_max Time of one reconcile
        # TYPE svc_reconciler_duration_seconds_max gauge
        svc_reconciler_duration_seconds_max{name="svc-user-bo",namespace="svc-dev",reconciler="user"} 2.000000001
        svc_reconciler_duration_seconds_max{name="svc-user-dana",namespace="svc-dev",reconciler="user"} 0.003
        svc_reconciler_duration_seconds_max{name="svc-user-zoe",namespace="svc-dev",reconciler="user"} 0.0
        """);
  }

  @Test
  void the_maximum_forgets_reconciles_older_than_two_to_three_windows_of_a_minute() {
    record("svc-user-dana", Duration.ofMillis(5));
    advance(Duration.ofSeconds(70));
    record("svc-user-dana", Duration.ofMillis(3));
    for (int seconds : new int[] {59, 1, 55, 1, 60}) { // 129 s, 130 s, 185 s, 186 s, 246 s after the first
      advance(Duration.ofSeconds(seconds));
      assertSameScrapes();
    }
    assertThat(compact.scrape(TEXT)).contains(
        "svc_reconciler_duration_seconds_max{name=\"svc-user-dana\",namespace=\"svc-dev\",reconciler=\"user\"} 0.0");
    record("svc-user-dana", Duration.ofMillis(1));
    assertSameScrapes();
  }

  @Test
  void a_forgotten_name_and_a_timer_without_names_write_nothing() {
    record("svc-user-dana", Duration.ofMillis(2));
    timer.forget("svc-user-dana");

    assertThat(compact.scrape(TEXT)).isEmpty();
    assertThat(compact.scrape(OPEN_METRICS)).isEqualTo("# EOF\n");
  }
}
