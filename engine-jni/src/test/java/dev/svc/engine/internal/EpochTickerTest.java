package dev.svc.engine.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How a hard deadline becomes an epoch deadline in 2 ms ticks. */
class EpochTickerTest {

  @ParameterizedTest(name = "{0} ns -> {1} ticks")
  @CsvSource({
    "0, 1",
    "-5, 1",
    "1, 2",
    "2000000, 2",
    "2000001, 3",
    "100000000, 51",
    "9223372036854775807, 4611686018429",
  })
  void ticksCoverTheDeadlinePlusTheTickInProgress(long nanos, long ticks) {
    assertThat(EpochTicker.ticksFor(Duration.ofNanos(nanos))).isEqualTo(ticks);
  }

  @ParameterizedTest(name = "{0} days")
  @CsvSource({"1000000", "100000000000"})
  void deadlinesBeyondNanosecondRangeSaturate(long days) {
    assertThat(EpochTicker.ticksFor(Duration.ofDays(days))).isEqualTo(4611686018429L);
  }
}
