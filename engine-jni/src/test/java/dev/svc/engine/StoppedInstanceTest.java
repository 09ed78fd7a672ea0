package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.svc.engine.internal.CallingThread;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A module that traps or exits stops its instance for good, and the error quotes its stderr.
 *
 * <p>Runs once per {@link Isolation}: an instance in a host process must behave exactly alike.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Isolation.class)
class StoppedInstanceTest {

  /** Where the test's instances run. */
  @Parameter
  Isolation isolation;

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void aTrapStopsTheInstanceAndQuotesTheModulesStderr(CallingThread thread) throws Exception {
    thread.run(() -> {
      try (EngineModule module = EngineModule.fromBytes(TestModules.wat("engine_traps"));
          Engine engine = Engine.create(module, Limits.defaults(), isolation)) {
        StoppedException stopped = catchThrowableOfType(StoppedException.class, engine::version);

        assertThat(stopped.message())
            .startsWith("the Sigil module stopped: it trapped: ")
            .endsWith("\nfatal: the engine broke\nat engine_call");
        assertThat(stopped.help()).startsWith("this instance can't be used again: build a new one");
        assertThat(stopped.isStopped()).isTrue();
        assertThat(engine.stopped()).containsSame(stopped);
      }
    });
  }

  @Test
  void everyLaterCallRepeatsTheSameErrorWithoutEnteringTheModule() {
    try (EngineModule module = EngineModule.fromBytes(TestModules.wat("engine_traps"));
        Engine engine = Engine.create(module, Limits.defaults(), isolation)) {
      StoppedException first = catchThrowableOfType(StoppedException.class, engine::version);

      assertThatThrownBy(engine::version).isSameAs(first);
      assertThatThrownBy(() -> engine.call("{\"op\":\"version\"}")).isSameAs(first);
    }
  }

  @Test
  void aStoppedInstanceStillReportsItsMemorySize() {
    try (EngineModule module = EngineModule.fromBytes(TestModules.wat("engine_traps"));
        Engine engine = Engine.create(module, Limits.defaults(), isolation)) {
      long before = engine.memorySize();
      catchThrowableOfType(StoppedException.class, engine::version);

      assertThat(engine.memorySize()).isPositive().isEqualTo(before);
    }
  }

  @Test
  void anExitWhileStartingIsAStoppedStartWithTheExitCodeAndStderr() {
    try (EngineModule module = EngineModule.fromBytes(TestModules.wat("engine_start_exits"))) {
      assertThatThrownBy(() -> Engine.create(module, Limits.defaults(), isolation))
          .isInstanceOf(StoppedException.class)
          .extracting(e -> ((StoppedException) e).message())
          .isEqualTo("starting the Sigil module failed: it exited with code 3\ncannot start: no memory?!");
    }
  }

  @Test
  void aPanicInsideTheEngineIsAnAnswerAndTheInstanceKeepsWorking() {
    try (EngineModule module = EngineModule.fromBytes(TestModules.panicProbeEngine());
        Engine engine = Engine.create(module, Limits.defaults(), isolation)) {
      String answer = engine.call("{\"id\":9,\"op\":\"panic-probe\"}");

      assertThat(answer)
          .isEqualTo(
              "{\"id\":9,\"ok\":false,\"error\":{\"message\":\"the engine failed while handling the"
                  + " request: the panic-probe op panics on purpose\",\"help\":\"this is a bug in the"
                  + " engine; please report it with the request\"}}");
      assertThat(engine.stopped()).isEmpty();
      assertThat(engine.call("{\"id\":10,\"op\":\"panic-probe\"}")).startsWith("{\"id\":10,\"ok\":false,");
      assertThat(engine.version().platform()).isEqualTo("wasip1/wasm");
    }
  }

  @Test
  void theReleaseEngineHasNoPanicProbe() {
    try (Engine engine = Engine.create(TestModules.engine(), Limits.defaults(), isolation)) {
      assertThat(engine.call("{\"op\":\"panic-probe\"}")).contains("unknown op \\\"panic-probe\\\"");
    }
  }

  @Test
  void aModuleOfAnotherAbiVersionIsRefused() {
    try (EngineModule module = EngineModule.fromBytes(TestModules.wat("engine_abi2"))) {
      assertThatThrownBy(() -> Engine.create(module, Limits.defaults(), isolation))
          .isInstanceOf(EngineException.class)
          .hasMessageStartingWith("the module speaks ABI version 2, and this library version 1\n  help: ");
    }
  }
}
