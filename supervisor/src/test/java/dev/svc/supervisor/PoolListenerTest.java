package dev.svc.supervisor;

import static dev.svc.supervisor.Fixtures.installRefund;
import static dev.svc.supervisor.Fixtures.refund;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.svc.engine.EngineException;
import dev.svc.engine.NoPolicyException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** What a {@link Pool} reports to its {@link PoolListener}. */
class PoolListenerTest {

  /** Writes each report down as a line; durations only as whether they are positive. */
  private static final class Recording implements PoolListener {

    final List<String> reports = new CopyOnWriteArrayList<>();
    volatile Supplier<PoolStats> stats;

    @Override
    public void attached(Supplier<PoolStats> stats) {
      this.stats = stats;
      reports.add("attached");
    }

    @Override
    public void waited(Duration waited) {
      reports.add("waited");
    }

    @Override
    public void evaluated(String policy, String decision, Duration took) {
      reports.add("evaluated " + policy + " " + decision + (took.isNegative() || took.isZero() ? " in no time" : ""));
    }

    @Override
    public void failed(String policy, FailureKind kind) {
      reports.add("failed " + policy + " " + kind);
    }

    @Override
    public void rebuilt(Duration took) {
      reports.add("rebuilt" + (took.isNegative() || took.isZero() ? " in no time" : ""));
    }

    @Override
    public void rebuildFailed(Throwable cause) {
      reports.add("rebuild failed");
    }

    @Override
    public void closed() {
      reports.add("closed");
    }
  }

  @Test
  void thePoolReportsEvaluationsFailuresByKindWaitsAndRebuilds() {
    Recording listener = new Recording();
    Pool pool = Pool.create(Fixtures.fueled(), PoolOptions.builder().size(1).listener(listener).build());
    installRefund(pool, "refund.desk");
    assertThat(listener.stats.get()).isEqualTo(new PoolStats(1, 1, 1, 0, 0));

    pool.evaluate("refund.desk", refund(40, "web"));
    assertThatThrownBy(() -> pool.evaluate("refund.none", refund(40, "web"))).isInstanceOf(NoPolicyException.class);
    assertThatThrownBy(() -> pool.evaluate("refund.desk", Map.of("amout", 1))).isInstanceOf(EngineException.class);
    Kill.FUEL.poison(pool, "refund.desk");
    await().until(() -> listener.reports.contains("rebuilt"));
    pool.close();

    assertThat(listener.reports)
        .containsExactly(
            "attached",
            "waited",
            "evaluated refund.desk approve",
            "failed refund.none NO_POLICY",
            "waited",
            "failed refund.desk REFUSED",
            "waited",
            "failed refund.desk OUT_OF_FUEL",
            "rebuilt",
            "closed");
    assertThat(listener.stats.get().replaced()).isEqualTo(1);
  }

  @Test
  void aListenerThatThrowsChangesNothingForThePool() {
    PoolListener broken = new PoolListener() {
      @Override
      public void evaluated(String policy, String decision, Duration took) {
        throw new IllegalStateException("the listener's own bug");
      }

      @Override
      public void rebuilt(Duration took) {
        throw new IllegalStateException("the listener's own bug");
      }

      @Override
      public void waited(Duration waited) {
        throw new IllegalStateException("the listener's own bug");
      }
    };
    try (Pool pool = Pool.create(Fixtures.fueled(), PoolOptions.builder().size(1).listener(broken).build())) {
      installRefund(pool, "refund.desk");

      assertThat(pool.evaluate("refund.desk", refund(40, "web")).decision()).contains("approve");
      Kill.FUEL.poison(pool, "refund.desk");

      assertThat(pool.evaluate("refund.desk", refund(40, "web")).decision()).contains("approve");
      assertThat(pool.stats()).isEqualTo(new PoolStats(1, 1, 1, 1, 0));
    }
  }
}
