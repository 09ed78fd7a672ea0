package dev.svc.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The inputs of Go's own {@code time.ParseDuration} tests, accepted and refused alike. */
class GoDurationTest {

  @ParameterizedTest
  @CsvSource({
    "0, 0",
    "5s, 5000000000",
    "30s, 30000000000",
    "1478s, 1478000000000",
    "-5s, -5000000000",
    "+5s, 5000000000",
    "-0, 0",
    "+0, 0",
    "5.0s, 5000000000",
    "5.6s, 5600000000",
    "5.s, 5000000000",
    ".5s, 500000000",
    "1.0s, 1000000000",
    "1.00s, 1000000000",
    "1.004s, 1004000000",
    "100.00100s, 100001000000",
    "10ns, 10",
    "11us, 11000",
    "12µs, 12000",
    "12μs, 12000",
    "13ms, 13000000",
    "14s, 14000000000",
    "15m, 900000000000",
    "16h, 57600000000000",
    "3h30m, 12600000000000",
    "10.5s4m, 250500000000",
    "-2m3.4s, -123400000000",
    "1h2m3s4ms5us6ns, 3723004005006",
    "39h9m14.425s, 140954425000000",
    "52763797000ns, 52763797000",
    "0.3333333333333333333h, 1200000000000",
    "9223372036854775807ns, 9223372036854775807",
    "-9223372036854775808ns, -9223372036854775808",
    "1.5h, 5400000000000",
    "90s, 90000000000"
  })
  void accepts_what_go_accepts(String text, long nanos) {
    assertThat(GoDuration.parse(text)).isEqualTo(Duration.ofNanos(nanos));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "3", "-", "s", ".", "-.", ".s", "+.s", "1d", "\u00b5s", "5x", "1h 30m", "1,5h",
      "9223372036854775808ns", "-9223372036854775809ns", "3000000h"})
  void refuses_what_go_refuses(String text) {
    assertThatThrownBy(() -> GoDuration.parse(text)).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "5x|`5x` has the unknown unit `x`",
    "3|`3` has a number without a unit",
    "''|`` isn't a duration",
    "3000000h|`3000000h` is out of range: a duration is at most about 292 years"
  })
  void says_what_is_wrong(String text, String message) {
    assertThatThrownBy(() -> GoDuration.parse(text)).hasMessage(message);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "45m, 45m0s",
    "90s, 1m30s",
    "1.5h, 1h30m0s",
    "6h, 6h0m0s",
    "10m, 10m0s",
    "0, 0s",
    "1.5s, 1.5s",
    "1h0m0.25s, 1h0m0.25s",
    "1.5ms, 1.5ms",
    "2us, 2\u00b5s",
    "7ns, 7ns",
    "-1m, -1m0s",
    "25h, 25h0m0s",
  })
  void durations_are_written_as_go_writes_them(String text, String canonical) {
    assertThat(GoDuration.format(GoDuration.parse(text))).isEqualTo(canonical);
    assertThat(GoDuration.parse(canonical)).isEqualTo(GoDuration.parse(text));
  }
}
