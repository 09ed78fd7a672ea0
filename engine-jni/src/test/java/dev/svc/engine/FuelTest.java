package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link EvalOptions#fuel()}: an evaluation bounded by a budget of WebAssembly instructions.
 *
 * <p>Runs once per {@link Isolation}: an instance in a host process must behave exactly alike.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Isolation.class)
class FuelTest {

  /** Where the test's instances run. */
  @Parameter
  Isolation isolation;

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
              "gate/main.sigil",
              """
              policy gate.main: Gate@1

              when floor > 1 {
                allow(reason: member)
              }
              """));

  private static EngineModule metered;

  @BeforeAll
  static void load() {
    metered = EngineModule.bundled(ModuleConfig.defaults().withFuel(true));
  }

  @AfterAll
  static void unload() {
    metered.close();
  }

  @Test
  void aCallThatUsesUpItsFuelIsStoppedAndSoIsItsInstance() {
    try (Engine engine = Engine.create(metered, Limits.defaults(), isolation);
        Policy policy = engine.compile(FILES, CompileOptions.defaults())) {
      OutOfFuelException outOfFuel =
          catchThrowableOfType(
              OutOfFuelException.class,
              () -> policy.evalWith(Map.of("floor", 3), EvalOptions.defaults().withFuel(100)));

      assertThat(outOfFuel.getMessage())
          .isEqualTo(
              "the call ran out of fuel and was stopped; the instance is stopped\n"
                  + "  help: raise the call's fuel limit; build a new instance to go on");
      assertThat(outOfFuel.isStopped()).isTrue();
      StoppedException later =
          catchThrowableOfType(StoppedException.class, () -> policy.eval(Map.of("floor", 3)));
      assertThat(later.message())
          .isEqualTo("the Sigil module stopped earlier: a call ran out of fuel and was stopped");
      assertThat(engine.stopped()).containsSame(later);
    }
  }

  @Test
  void aCallWithEnoughFuelDecidesAndTheNextCallHasItsOwnBudget() {
    try (Engine engine = Engine.create(metered, Limits.defaults(), isolation);
        Policy policy = engine.compile(FILES, CompileOptions.defaults())) {
      EvalOptions budget = EvalOptions.defaults().withFuel(50_000_000);

      assertThat(policy.evalWith(Map.of("floor", 3), budget).decision()).contains("allow");
      assertThat(policy.evalWith(Map.of("floor", 0), budget).decision()).contains("deny");
      assertThat(engine.stopped()).isEmpty();
    }
  }

  @Test
  void aFuelLimitOnAModuleWithoutMeteringIsRefusedAndTheInstanceWorksOn() {
    try (Engine engine = Engine.create(TestModules.engine(), Limits.defaults(), isolation);
        Policy policy = engine.compile(FILES, CompileOptions.defaults())) {
      assertThatThrownBy(() -> policy.evalWith(Map.of("floor", 3), EvalOptions.defaults().withFuel(100)))
          .isInstanceOf(EngineException.class)
          .hasMessage(
              "a fuel limit needs a module built with fuel metering\n"
                  + "  help: load the module with ModuleConfig.defaults().withFuel(true)");
      assertThat(policy.eval(Map.of("floor", 3)).decision()).contains("allow");
    }
  }
}
