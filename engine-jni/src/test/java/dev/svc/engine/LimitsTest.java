package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** {@link Limits}: the bounds of an instance's calls (bindings.md §8.5). */
class LimitsTest {

  @Test
  void theDefaultsAreHalfASecondOfGraceAMinuteForOpsAndNoMemoryCap() {
    assertThat(Limits.defaults())
        .isEqualTo(new Limits(Duration.ofMillis(500), Optional.of(Duration.ofSeconds(60)), OptionalLong.empty()));
  }

  @Test
  void aCopyChangesOneBound() {
    Limits limits =
        Limits.defaults()
            .withGrace(Duration.ZERO)
            .withOpDeadline(Duration.ofMillis(100))
            .withMaxMemory(16 << 20);

    assertThat(limits).isEqualTo(new Limits(Duration.ZERO, Optional.of(Duration.ofMillis(100)), OptionalLong.of(16 << 20)));
    assertThat(limits.withoutOpDeadline().opDeadline()).isEmpty();
  }

  @Test
  void boundsOutOfRangeAreRefusedWithTheValue() {
    assertThatThrownBy(() -> Limits.defaults().withGrace(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("grace must not be negative, got PT-0.001S");
    assertThatThrownBy(() -> Limits.defaults().withOpDeadline(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("opDeadline must be positive, got PT0S");
    assertThatThrownBy(() -> Limits.defaults().withMaxMemory(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxMemory must be positive, got 0 bytes");
    assertThatThrownBy(() -> Limits.defaults().withOpDeadline(null)).hasMessage("deadline");
  }

  @Test
  void aKindOfOperationMayHaveADeadlineOfItsOwn() {
    Limits limits = Limits.defaults().withOpDeadline("compile", Duration.ofSeconds(30))
        .withOpDeadline("format", Duration.ofSeconds(5)).withOpDeadline(Duration.ofSeconds(20));

    assertThat(limits.opDeadline("compile")).contains(Duration.ofSeconds(30));
    assertThat(limits.opDeadline("format")).contains(Duration.ofSeconds(5));
    assertThat(limits.opDeadline("check")).as("the general deadline").contains(Duration.ofSeconds(20));
    assertThat(limits.withoutOpDeadline().opDeadline("check")).isEmpty();
    assertThat(limits.withoutOpDeadline().opDeadline("compile")).contains(Duration.ofSeconds(30));
    assertThatThrownBy(() -> Limits.defaults().withOpDeadline("test", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the deadline of test must be positive, got PT0S");
  }

  @Test
  void anInstanceWithoutAnyDeadlineWorks() {
    try (Engine engine = Engine.create(TestModules.engine(), Limits.defaults().withoutOpDeadline());
        Policy policy =
            engine.compile(
                List.of(BadgeDoor.KIND, BadgeDoor.MAIN),
                CompileOptions.defaults().withStub("badge", Stub.returning(true)))) {
      Map<String, Object> ada = Map.of("floor", 2, "user", "ada");

      assertThat(policy.eval(ada).decision()).contains("allow");
      assertThat(policy.evalWith(ada, EvalOptions.defaults().withTimeout(Duration.ofSeconds(30))).decision())
          .contains("allow");
      assertThat(engine.stopped()).isEmpty();
    }
  }
}
