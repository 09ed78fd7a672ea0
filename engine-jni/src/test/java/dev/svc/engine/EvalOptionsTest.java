package dev.svc.engine;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link EvalOptions}: an evaluation's timeout, its grace and its fuel (bindings.md §6, §8). */
class EvalOptionsTest {

  private static final Duration INSTANCE_GRACE = Duration.ofMillis(500);

  @ParameterizedTest(name = "{0} ns is sent as {1} ms")
  @CsvSource({
    "1, 1",
    "999999, 1",
    "1000000, 1",
    "1000001, 2",
    "1500000000, 1500",
    "9223372036854775807, 9223372036855",
  })
  void theTimeoutIsSentInWholeMillisecondsRoundedUp(long nanos, long millis) {
    assertThat(EvalOptions.defaults().withTimeout(Duration.ofNanos(nanos)).timeoutMillis()).isEqualTo(millis);
  }

  @Test
  void aTimeoutBeyondTheMillisecondsALongHoldsIsSentAsTheMost() {
    EvalOptions forever = EvalOptions.defaults().withTimeout(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999));

    assertThat(forever.timeoutMillis()).isEqualTo(Long.MAX_VALUE);
    assertThat(forever.hardDeadline(INSTANCE_GRACE)).contains(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999));
  }

  @Test
  void withoutATimeoutNothingIsSentAndThereIsNoDeadlineOfItsOwn() {
    EvalOptions options = EvalOptions.defaults().withGrace(Duration.ZERO);

    assertThat(options.timeoutMillis()).isZero();
    assertThat(options.hardDeadline(INSTANCE_GRACE)).isEmpty();
  }

  @Test
  void theHardDeadlineIsTheTimeoutPlusTheInstancesGraceUnlessTheOptionsGiveTheirOwn() {
    EvalOptions timed = EvalOptions.defaults().withTimeout(Duration.ofMillis(40));

    assertThat(timed.hardDeadline(INSTANCE_GRACE)).contains(Duration.ofMillis(540));
    assertThat(timed.withGrace(Duration.ofMillis(5)).hardDeadline(INSTANCE_GRACE)).contains(Duration.ofMillis(45));
    assertThat(timed.withGrace(Duration.ZERO).hardDeadline(INSTANCE_GRACE)).contains(Duration.ofMillis(40));
  }

  @Test
  void aCopyKeepsWhatItDoesntChange() {
    EvalOptions all =
        EvalOptions.defaults().withFuel(7).withGrace(Duration.ofMillis(3)).withTimeout(Duration.ofSeconds(1));

    assertThat(all.fuel()).hasValue(7);
    assertThat(all.grace()).contains(Duration.ofMillis(3));
    assertThat(all.timeout()).contains(Duration.ofSeconds(1));
  }

  @Test
  void outOfRangeValuesAreRefusedWithTheValue() {
    assertThatThrownBy(() -> EvalOptions.defaults().withTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("timeout must be positive, got PT0S");
    assertThatThrownBy(() -> EvalOptions.defaults().withGrace(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("grace must not be negative, got PT-0.001S");
    assertThatThrownBy(() -> EvalOptions.defaults().withFuel(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fuel must be positive, got 0");
    assertThatThrownBy(() -> EvalOptions.defaults().withTimeout(null)).hasMessage("timeout");
  }

  @Test
  void aZeroGraceKillsTheCallAtItsTimeoutWhateverTheInstancesGrace() {
    try (EngineModule module = EngineModule.fromBytes(TestModules.wat("engine_loops"));
        Engine engine = Engine.create(module, Limits.defaults().withGrace(Duration.ofMinutes(10)))) {
      EvalOptions noGrace = EvalOptions.defaults().withTimeout(Duration.ofMillis(20)).withGrace(Duration.ZERO);

      TimeoutException timeout =
          catchThrowableOfType(
              TimeoutException.class,
              () -> engine.instance().evaluate("{\"op\":\"eval\"}".getBytes(UTF_8), noGrace, Map.of()));

      assertThat(timeout.deadline()).isEqualTo(Duration.ofMillis(20));
      assertThat(engine.stopped()).isPresent();
    }
  }
}
