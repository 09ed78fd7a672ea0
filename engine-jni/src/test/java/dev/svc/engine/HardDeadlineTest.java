package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.svc.engine.internal.CallingThread;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A call that runs past its hard deadline is killed by wasmtime and stops its instance.
 *
 * <p>Runs once per {@link Isolation}: an instance in a host process must behave exactly alike.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Isolation.class)
class HardDeadlineTest {

  /** Where the test's instances run. */
  @Parameter
  Isolation isolation;

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void aCallPastTheOpDeadlineIsKilledAndTheInstanceStops(CallingThread thread) throws Exception {
    thread.run(() -> {
      try (EngineModule module = EngineModule.fromBytes(TestModules.wat("engine_loops"));
          // Long enough for the start, which runs under it too, on a busy machine.
          Engine engine = Engine.create(module, Limits.defaults().withOpDeadline(Duration.ofMillis(200)), isolation)) {
        TimeoutException timeout = catchThrowableOfType(TimeoutException.class, engine::version);

        assertThat(timeout.deadline()).isEqualTo(Duration.ofMillis(200));
        assertThat(timeout.getMessage())
            .isEqualTo(
                "the call ran past its hard deadline of 200 ms and was killed; the instance is stopped\n"
                    + "  help: raise the deadline, or look for a policy loop over a large input or a host"
                    + " function that blocks; build a new instance to go on");
        assertThat(timeout.isStopped()).isTrue();
      }
    });
  }

  @Test
  void laterCallsSayTheInstanceWasKilledEarlier() {
    try (EngineModule module = EngineModule.fromBytes(TestModules.wat("engine_loops"));
        Engine engine = Engine.create(module, Limits.defaults().withOpDeadline(Duration.ofMillis(100)), isolation)) {
      catchThrowableOfType(TimeoutException.class, engine::version);

      StoppedException later = catchThrowableOfType(StoppedException.class, engine::version);

      assertThat(later).isNotInstanceOf(TimeoutException.class);
      assertThat(later.message())
          .isEqualTo("the Sigil module stopped earlier: a call ran past its hard deadline and was killed");
      assertThat(engine.stopped()).containsSame(later);
    }
  }

  @Test
  void anInstanceOfTheSameModuleIsUnaffectedByAnothersTimeout() {
    try (EngineModule module = EngineModule.fromBytes(TestModules.wat("engine_loops"));
        Engine killed = Engine.create(module, Limits.defaults().withOpDeadline(Duration.ofMillis(100)), isolation);
        Engine other = Engine.create(module, Limits.defaults(), isolation)) {
      catchThrowableOfType(TimeoutException.class, killed::version);

      assertThat(other.stopped()).isEmpty();
    }
  }

  @Test
  void theRealEngineAnswersWellInsideTheDefaultDeadline() {
    try (Engine engine = Engine.create(TestModules.engine(), Limits.defaults(), isolation)) {
      assertThat(engine.version().platform()).isEqualTo("wasip1/wasm");
    }
  }
}
