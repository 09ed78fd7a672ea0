package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;

/** A module that traps or exits stops its instance for good, and the error quotes its stderr. */
class StoppedInstanceTest {

  @Test
  void aTrapStopsTheInstanceAndQuotesTheModulesStderr() {
    try (Module module = Module.fromBytes(TestModules.wat("engine_traps"));
        Engine engine = Engine.create(module)) {
      StoppedException stopped = catchThrowableOfType(StoppedException.class, engine::version);

      assertThat(stopped.message())
          .startsWith("the Sigil module stopped: it trapped: ")
          .endsWith("\nfatal: the engine broke\nat engine_call");
      assertThat(stopped.help()).startsWith("this instance can't be used again: build a new one");
      assertThat(stopped.isStopped()).isTrue();
      assertThat(engine.stopped()).containsSame(stopped);
    }
  }

  @Test
  void everyLaterCallRepeatsTheSameErrorWithoutEnteringTheModule() {
    try (Module module = Module.fromBytes(TestModules.wat("engine_traps"));
        Engine engine = Engine.create(module)) {
      StoppedException first = catchThrowableOfType(StoppedException.class, engine::version);

      assertThatThrownBy(engine::version).isSameAs(first);
      assertThatThrownBy(() -> engine.call("{\"op\":\"version\"}")).isSameAs(first);
    }
  }

  @Test
  void anExitWhileStartingIsAStoppedStartWithTheExitCodeAndStderr() {
    try (Module module = Module.fromBytes(TestModules.wat("engine_start_exits"))) {
      assertThatThrownBy(() -> Engine.create(module))
          .isInstanceOf(StoppedException.class)
          .extracting(e -> ((StoppedException) e).message())
          .isEqualTo("starting the Sigil module failed: it exited with code 3\ncannot start: no memory?!");
    }
  }

  @Test
  void aModuleOfAnotherAbiVersionIsRefused() {
    try (Module module = Module.fromBytes(TestModules.wat("engine_abi2"))) {
      assertThatThrownBy(() -> Engine.create(module))
          .isInstanceOf(EngineException.class)
          .hasMessageStartingWith("the module speaks ABI version 2, and this library version 1\n  help: ");
    }
  }
}
