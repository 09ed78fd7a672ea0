package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The library's errors: their text form and which of them mean a dead instance (bindings.md §11). */
class SvcExceptionTest {

  private static final Diagnostic FIRST =
      new Diagnostic("error", Optional.empty(), Optional.of("a.sigil"), Optional.empty(), "bad",
          Optional.of("fix it"), 2, 12);
  private static final Diagnostic SECOND =
      new Diagnostic("warning", Optional.empty(), Optional.empty(), Optional.empty(), "odd",
          Optional.empty(), 0, 0);

  @Test
  void theTextIsTheMessageThenTheHelpThenOneLinePerDiagnostic() {
    EngineException refused = new EngineException("nothing was compiled", "fix the errors", List.of(FIRST, SECOND));

    assertThat(refused.getMessage())
        .isEqualTo(
            "nothing was compiled\n  help: fix the errors\n  a.sigil:2:12: error: bad (help: fix it)\n"
                + "  warning: odd");
    assertThat(refused.message()).isEqualTo("nothing was compiled");
    assertThat(refused.diagnostics()).containsExactly(FIRST, SECOND);
  }

  @Test
  void anEmptyOrMissingHelpIsAbsentFromTheText() {
    assertThat(new EngineException("m", "").getMessage()).isEqualTo("m");
    assertThat(new EngineException("m", null).help()).isEmpty();
    assertThat(new EngineException("m", null).getMessage()).isEqualTo("m");
  }

  @Test
  void aStoppedErrorIsItsMessageAndHelp() {
    StoppedException stopped = new StoppedException("the Sigil module stopped: it trapped", "build a new one", null);

    assertThat(stopped.getMessage()).isEqualTo("the Sigil module stopped: it trapped\n  help: build a new one");
  }

  @Test
  void onlyTheErrorsOfADeadInstanceAreStopped() {
    assertThat(new StoppedException("m", "h", null).isStopped()).isTrue();
    assertThat(new TimeoutException(Duration.ofMillis(20), "").isStopped()).isTrue();
    assertThat(new OutOfFuelException("").isStopped()).isTrue();
    assertThat(new EngineException("m", "h").isStopped()).isFalse();
    assertThat(new NoPolicyException("door.main").isStopped()).isFalse();
    assertThat(new BusyException(Duration.ofSeconds(1)).isStopped()).isFalse();
  }

  @Test
  void thePoolsErrorsSayWhatHappenedAndWhatToDo() {
    assertThat(new NoPolicyException("door.main").getMessage())
        .isEqualTo(
            "the pool has no policy named door.main\n"
                + "  help: install it with Pool.install or Pool.compile before evaluating it");
    assertThat(new BusyException(Duration.ofMillis(250)).getMessage())
        .isEqualTo("every instance of the pool stayed busy for 250 ms\n  help: the pool is saturated: raise its size or shed load");
    assertThat(new BusyException(Duration.ofMillis(250)).waited()).isEqualTo(Duration.ofMillis(250));
    assertThat(new NoPolicyException("door.main").name()).isEqualTo("door.main");
  }

  @Test
  void aTimeoutSaysItsDeadlineAndQuotesTheModulesStderr() {
    TimeoutException timeout = new TimeoutException(Duration.ofMillis(1500), "\nfatal: stuck");

    assertThat(timeout.deadline()).isEqualTo(Duration.ofMillis(1500));
    assertThat(timeout.message())
        .isEqualTo("the call ran past its hard deadline of 1500 ms and was killed; the instance is stopped\nfatal: stuck");
  }
}
