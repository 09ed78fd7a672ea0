package dev.svc.supervisor.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.svc.engine.CompileOptions;
import dev.svc.engine.EvalOptions;
import dev.svc.engine.Module;
import dev.svc.engine.ModuleConfig;
import dev.svc.engine.NoPolicyException;
import dev.svc.engine.OutOfFuelException;
import dev.svc.engine.SourceFile;
import dev.svc.supervisor.Pool;
import dev.svc.supervisor.PoolOptions;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link MicrometerPoolListener}: the pool's reports as Micrometer meters. */
class MicrometerPoolListenerTest {

  private static final List<SourceFile> FILES =
      List.of(
          SourceFile.of(
              "kind.sigil",
              """
              kind Gate version 1

              input floor: int

              decision deny {
                reason: no_rule
              }

              decision allow {
                reason: member
              }

              collect one
              precedence deny > allow

              default deny(reason: no_rule)
              """),
          SourceFile.of(
              "gate/main.sigil", "policy gate.main: Gate@1\n\nwhen floor > 1 {\n  allow(reason: member)\n}\n"));

  private static Module module;

  @BeforeAll
  static void load() {
    module = Module.bundled(ModuleConfig.defaults().withFuel(true));
  }

  @AfterAll
  static void unload() {
    module.close();
  }

  @Test
  void evaluationsFailuresRebuildsWaitsAndInstancesBecomeMeters() {
    MeterRegistry registry = new SimpleMeterRegistry();
    MicrometerPoolListener listener = new MicrometerPoolListener(registry, Tags.of("pool", "gates"));
    try (Pool pool = Pool.create(module, PoolOptions.builder().size(2).listener(listener).build())) {
      pool.compile("gate", FILES, CompileOptions.defaults());

      pool.evaluate("gate", Map.of("floor", 3));
      pool.evaluate("gate", Map.of("floor", 0));
      assertThatThrownBy(() -> pool.evaluate("nope", Map.of())).isInstanceOf(NoPolicyException.class);
      assertThatThrownBy(() -> pool.evaluate("gate", Map.of("floor", 3), EvalOptions.defaults().withFuel(100)))
          .isInstanceOf(OutOfFuelException.class);
      await().until(() -> registry.get("svc.pool.rebuilds").timer().count() == 1);

      assertThat(registry.get("svc.pool.evaluations").tags("pool", "gates", "policy", "gate").timer().count())
          .isEqualTo(2);
      assertThat(registry.get("svc.pool.failures").tags("policy", "nope", "kind", "no_policy").counter().count())
          .isEqualTo(1);
      assertThat(registry.get("svc.pool.failures").tags("policy", "gate", "kind", "out_of_fuel").counter().count())
          .isEqualTo(1);
      assertThat(registry.get("svc.pool.acquire").timer().count()).as("an unknown name takes no instance").isEqualTo(3);
      assertThat(registry.get("svc.pool.rebuild.failures").counter().count()).isZero();
      assertThat(registry.get("svc.pool.instances").tags("state", "idle").gauge().value()).isEqualTo(2);
      assertThat(registry.get("svc.pool.instances").tags("state", "busy").gauge().value()).isZero();
      assertThat(registry.get("svc.pool.instances").tags("state", "rebuilding").gauge().value()).isZero();
    }
    assertThat(registry.find("svc.pool.instances").gauges()).as("removed when the pool closed").isEmpty();
  }
}
