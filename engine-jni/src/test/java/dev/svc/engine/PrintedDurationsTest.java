package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.engine.internal.AbiCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Durations the real engine prints, read and written on the host side: {@link Durations#formatValue}
 * prints a value as the engine does, {@link Durations#parseValue} reads it back exactly, and so do
 * the library's Jackson mapper, host function arguments and typed payloads.
 */
class PrintedDurationsTest extends EngineFixture {

  private static final SourceFile KIND =
      SourceFile.of(
          "clock.sigil",
          """
          kind Clock version 1

          input start: timestamp
          input end: timestamp

          fn seen(duration) -> bool

          decision gap {
            reason: measured | unseen
            length: duration = 0s
          }

          collect one
          precedence gap

          default gap(reason: unseen)
          """);

  private static final SourceFile POLICY =
      SourceFile.of(
          "clock/main.sigil",
          """
          policy clock.main: Clock@1

          when seen(end - start) {
            gap(reason: measured, length: end - start)
          }
          """);

  /** The payload as a Java record: Jackson reads its duration through the library's mapper. */
  record Gap(Duration length) {}

  @ParameterizedTest(name = "{0} to {1}")
  @CsvSource({
    "2026-01-01T00:00:00Z, 2026-01-01T01:30:00Z",
    "2026-01-01T01:30:00Z, 2026-01-01T00:00:00Z",
    "2026-01-01T00:00:00Z, 2026-01-01T00:00:00Z",
    "2026-01-01T00:00:00Z, 2026-01-01T00:00:00.0015Z",
    "2026-01-01T00:00:00Z, 2026-01-01T00:00:00.0000005Z",
    "2026-01-01T00:00:00.0000005Z, 2026-01-01T00:00:00Z",
    "2026-01-01T00:00:00Z, 2026-01-03T03:00:00.000000001Z",
    "2026-01-03T03:00:00.000000001Z, 2026-01-01T00:00:00Z",
    "1800-01-01T00:00:00Z, 2090-06-30T12:34:56.789012345Z",
    "2090-06-30T12:34:56.789012345Z, 1800-01-01T00:00:00Z",
  })
  void payloadDurationsPrintAsFormatValueAndReadBackExactly(Instant start, Instant end) throws Exception {
    Duration gap = Duration.between(start, end);
    List<Duration> arguments = new ArrayList<>();
    CompileOptions options =
        CompileOptions.defaults()
            .withFunction("seen", HostFunction.of(Duration.class, length -> arguments.add(length)));

    try (Policy policy = engine.compile(List.of(KIND, POLICY), options)) {
      EvalResult result = policy.eval(Map.of("start", start, "end", end));

      assertThat(result.error()).isEmpty();
      assertThat(result.reason()).contains("measured");
      JsonNode printed = result.payload().orElseThrow().get("length");
      assertThat(printed.textValue()).isEqualTo(Durations.formatValue(gap));
      assertThat(Durations.parseValue(printed.textValue())).isEqualTo(gap);
      assertThat(AbiCodec.MAPPER.treeToValue(result.payload().orElseThrow(), Gap.class))
          .isEqualTo(new Gap(gap));
      assertThat(arguments).containsExactly(gap);
    }
  }

  @ParameterizedTest(name = "{0} to {1}")
  @CsvSource({
    "1000-01-01T00:00:00Z, 3000-01-01T00:00:00Z, 9223372036854775807",
    "3000-01-01T00:00:00Z, 1000-01-01T00:00:00Z, -9223372036854775808",
  })
  void aGapBeyondGosRangeSaturatesAtTheEndsThatParseValueReads(Instant start, Instant end, long nanos) {
    try (Policy policy =
        engine.compile(
            List.of(KIND, POLICY),
            CompileOptions.defaults().withFunction("seen", HostFunction.of(Duration.class, length -> true)))) {
      EvalResult result = policy.eval(Map.of("start", start, "end", end));

      String printed = result.payload().orElseThrow().get("length").textValue();
      assertThat(Durations.parseValue(printed)).isEqualTo(Duration.ofNanos(nanos));
      assertThat(printed).isEqualTo(Durations.formatValue(Duration.ofNanos(nanos)));
    }
  }
}
