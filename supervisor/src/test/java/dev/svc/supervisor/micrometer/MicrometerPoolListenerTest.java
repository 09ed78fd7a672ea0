package dev.svc.supervisor.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.svc.engine.Engine;
import dev.svc.engine.EvalOptions;
import dev.svc.engine.NoPolicyException;
import dev.svc.engine.OutOfFuelException;
import dev.svc.supervisor.Fixtures;
import dev.svc.supervisor.Pool;
import dev.svc.supervisor.PoolOptions;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link MicrometerPoolListener}: the pool's reports as Micrometer meters. */
class MicrometerPoolListenerTest {

  @Test
  void evaluationsFailuresRebuildsWaitsAndInstancesBecomeMeters() {
    MeterRegistry registry = new SimpleMeterRegistry();
    MicrometerPoolListener listener = new MicrometerPoolListener(registry, Tags.of("pool", "desks"));
    try (Pool pool = Pool.create(Fixtures.fueled(), PoolOptions.builder().size(2).listener(listener).build())) {
      Fixtures.installRefund(pool, "desk");

      pool.evaluate("desk", Fixtures.refund(40, "web"));
      pool.evaluate("desk", Fixtures.refund(400, "web"));
      assertThatThrownBy(() -> pool.evaluate("nope", Map.of())).isInstanceOf(NoPolicyException.class);
      assertThatThrownBy(
              () -> pool.evaluate("desk", Fixtures.refund(40, "web"), EvalOptions.defaults().withFuel(100)))
          .isInstanceOf(OutOfFuelException.class);
      await().until(() -> registry.get("svc.pool.rebuilds").timer().count() == 1);

      assertThat(registry.get("svc.pool.evaluations").tags("pool", "desks", "policy", "desk").timers())
          .extracting(timer -> timer.getId().getTag("decision") + " " + timer.count())
          .containsExactlyInAnyOrder("approve 1", "deny 1");
      assertThat(registry.get("svc.pool.failures").tags("policy", "unknown", "kind", "no_policy").counter().count())
          .isEqualTo(1);
      assertThat(registry.get("svc.pool.failures").tags("policy", "desk", "kind", "out_of_fuel").counter().count())
          .isEqualTo(1);
      assertThat(registry.get("svc.pool.acquire").timer().count())
          .as("an unknown name takes no instance")
          .isEqualTo(3);
      assertThat(registry.get("svc.pool.rebuild.failures").counter().count()).isZero();
      assertThat(registry.get("svc.pool.instances").tags("state", "idle").gauge().value()).isEqualTo(2);
      assertThat(registry.get("svc.pool.instances").tags("state", "busy").gauge().value()).isZero();
      assertThat(registry.get("svc.pool.instances").tags("state", "rebuilding").gauge().value()).isZero();
    }
    assertThat(registry.find("svc.pool.instances").gauges()).as("removed when the pool closed").isEmpty();
  }

  @Test
  void eachInstancesMemoryIsAGaugeThatGrowsWithTheCallThatNeededIt() {
    MeterRegistry registry = new SimpleMeterRegistry();
    try (Pool pool = Pool.create(Fixtures.engine(),
        PoolOptions.builder().size(1).listener(new MicrometerPoolListener(registry)).build())) {
      long start = pool.withEngine(Engine::memorySize);
      assertThat(registry.get("svc.pool.memory").tags("instance", "0").gauge().value()).isEqualTo(start);

      String big = "policy a.b: K@1\n" + "\nlet x = [1, 2, 3]\n".repeat(100_000);
      long grown = pool.withEngine(engine -> {
        engine.format(big);
        return engine.memorySize();
      });

      assertThat(grown).isGreaterThan(start);
      assertThat(registry.get("svc.pool.memory").tags("instance", "0").gauge().value()).isEqualTo(grown);
      assertThat(registry.get("svc.pool.memory").gauge().getId().getBaseUnit()).isEqualTo("bytes");
    }
    assertThat(registry.find("svc.pool.memory").gauges()).as("removed when the pool closed").isEmpty();
  }

  @Test
  void aHundredThousandCallsOnNamesNeverInstalledMakeOneSeries() {
    MeterRegistry registry = new SimpleMeterRegistry();
    try (Pool pool = Pool.create(Fixtures.engine(),
        PoolOptions.builder().size(1).listener(new MicrometerPoolListener(registry)).build())) {
      Fixtures.installRefund(pool, "desk");
      pool.evaluate("desk", Fixtures.refund(40, "web"));

      for (int i = 0; i < 100_000; i++) {
        String name = "made-up-" + i;
        assertThatThrownBy(() -> pool.evaluate(name, Map.of())).isInstanceOf(NoPolicyException.class);
      }

      assertThat(registry.find("svc.pool.failures").counters())
          .extracting(counter -> counter.getId().getTag("policy") + " " + counter.count())
          .containsExactly("unknown 100000.0");
      assertThat(registry.find("svc.pool.evaluations").timers())
          .extracting(timer -> timer.getId().getTag("policy"))
          .containsExactly("desk");
    }
  }

  @Test
  void aRemovedPolicysSeriesGoAndLaterCallsOnItCountAsUnknown() {
    MeterRegistry registry = new SimpleMeterRegistry();
    try (Pool pool = Pool.create(Fixtures.engine(),
        PoolOptions.builder().size(1).listener(new MicrometerPoolListener(registry)).build())) {
      Fixtures.installRefund(pool, "desk");
      pool.evaluate("desk", Fixtures.refund(40, "web"));
      assertThat(registry.find("svc.pool.evaluations").tag("policy", "desk").timers()).hasSize(1);

      pool.remove("desk");
      assertThat(registry.find("svc.pool.evaluations").timers()).isEmpty();
      assertThatThrownBy(() -> pool.evaluate("desk", Map.of())).isInstanceOf(NoPolicyException.class);

      assertThat(registry.find("svc.pool.failures").counters())
          .extracting(counter -> counter.getId().getTag("policy"))
          .containsExactly("unknown");
    }
  }

  @Test
  void repeatedEvaluationsFollowInstallsAndRemovalsOfTheirPolicy() {
    MeterRegistry registry = new SimpleMeterRegistry();
    MicrometerPoolListener listener = new MicrometerPoolListener(registry);
    Duration took = Duration.ofMillis(1);

    listener.evaluated("desk", "approve", took);
    listener.evaluated("desk", "approve", took);
    listener.installed("desk");
    listener.evaluated("desk", "approve", took);
    listener.evaluated("desk", "deny", took);
    listener.evaluated("desk", "approve", took);
    assertThat(evaluations(registry)).containsExactlyInAnyOrder("unknown approve 2", "desk approve 2", "desk deny 1");

    listener.removed("desk");
    listener.evaluated("desk", "approve", took);
    assertThat(evaluations(registry)).as("the desk series went with the policy")
        .containsExactly("unknown approve 3");

    listener.installed("desk");
    listener.evaluated("desk", "approve", took);
    assertThat(evaluations(registry)).as("a new series, not the removed one's timer")
        .containsExactlyInAnyOrder("unknown approve 3", "desk approve 1");
  }

  private static List<String> evaluations(MeterRegistry registry) {
    return registry.find("svc.pool.evaluations").timers().stream()
        .map(timer -> timer.getId().getTag("policy") + " " + timer.getId().getTag("decision") + " " + timer.count())
        .toList();
  }

  @Test
  void tagValuesLoseTheirControlCharactersAndTheirLengthPast128() {
    assertThat(MicrometerPoolListener.tagValue("a\r\nb\u0000c")).isEqualTo("a__b_c");
    assertThat(MicrometerPoolListener.tagValue("x".repeat(200))).isEqualTo("x".repeat(128));
    assertThat(MicrometerPoolListener.tagValue("access.main")).isEqualTo("access.main");
  }
}
