package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link Durations}: Sigil's duration syntax on the host side (bindings.md §15). */
class DurationsTest {

  private static final String HELP_SYNTAX = "units are d, h, m, s and ms, largest first, each at most once: \"1h30m\"";
  private static final String HELP_REPEATED = "each unit may appear once in a duration; add the components together";
  private static final String HELP_ORDER = "write the largest unit first, like \"1h30m\"";
  private static final String HELP_RANGE = "a duration is at most about 292 years";
  private static final long MAX_MILLIS = 9_223_372_036_854L;

  @ParameterizedTest(name = "\"{0}\" is {1} ms")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ''                        | 0
          0s                        | 0
          1h30m                     | 5400000
          2d3h                      | 183600000
          5ms                       | 5
          1m30s250ms                | 90250
          90s                       | 90000
          36h                       | 129600000
          1500ms                    | 1500
          007s                      | 7000
          1d2h3m4s5ms               | 93784005
          106751d                   | 9223286400000
          9223372036854ms           | 9223372036854
          106751d23h47m16s854ms     | 9223372036854
          """)
  void parseReadsEachComponentAndAddsThemUp(String text, long millis) {
    assertThat(Durations.parse(text)).isEqualTo(Duration.ofMillis(millis));
  }

  @ParameterizedTest(name = "one {0} is {1} ms")
  @CsvSource({"1d, 86400000", "1h, 3600000", "1m, 60000", "1s, 1000", "1ms, 1", "0d, 0", "0ms, 0"})
  void everyUnitReadsAloneAndZeroOfAnyIsZero(String text, long millis) {
    assertThat(Durations.parse(text)).isEqualTo(Duration.ofMillis(millis));
    assertThat(Durations.parseValue(text)).isEqualTo(Duration.ofMillis(millis));
  }

  @ParameterizedTest(name = "\"{0}\": {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          90 minutes                                      | syntax
          h                                               | syntax
          5                                               | syntax
          1.5h                                            | syntax
          -1h                                             | syntax
          +1h                                             | syntax
          1h30                                            | syntax
          1w                                              | syntax
          1us                                             | syntax
          1H                                              | syntax
          '1h '                                           | syntax
          ' 1h'                                           | syntax
          1h1h                                            | repeated
          1ms1ms                                          | repeated
          384307168202282325d1d                           | repeated
          30m1h                                           | order
          1ms1s                                           | order
          1h30m1h                                         | order
          99999999999999999999h1d                         | order
          9223372036855ms                                 | range
          106751d23h47m16s855ms                           | range
          106752d                                         | range
          384307168202282326d1d                           | range
          99999999999999999999999999999999999999999999h   | range
          """)
  void parseRefusesWhatIsNotSigilSyntaxAndSaysWhichRuleItBreaks(String text, String rule) {
    String help =
        switch (rule) {
          case "syntax" -> HELP_SYNTAX;
          case "repeated" -> HELP_REPEATED;
          case "order" -> HELP_ORDER;
          default -> HELP_RANGE;
        };

    assertThatThrownBy(() -> Durations.parse(text))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo("invalid duration \"" + text + "\"");
              assertThat(e.help()).isEqualTo(help);
              assertThat(e.isStopped()).isFalse();
            });
  }

  @Test
  void theMessageGoQuotesTheText() {
    assertThatThrownBy(() -> Durations.parse("1h\t\"30m\"\n"))
        .hasMessage("invalid duration \"1h\\t\\\"30m\\\"\\n\"\n  help: " + HELP_SYNTAX);
  }

  @ParameterizedTest(name = "{0} ms is \"{1}\"")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0                 | 0s
          1                 | 1ms
          720000            | 12m
          5400000           | 1h30m
          183600000         | 2d3h
          86400001          | 1d1ms
          90000             | 1m30s
          129600000         | 1d12h
          93784005          | 1d2h3m4s5ms
          9223372036854     | 106751d23h47m16s854ms
          """)
  void formatWritesTheLargestUnitsFirstAndLeavesOutZeros(long millis, String text) {
    assertThat(Durations.format(Duration.ofMillis(millis))).isEqualTo(text);
  }

  @ParameterizedTest(name = "{0} ns is \"{1}\"")
  @CsvSource({"1, 0s", "999999, 0s", "1500000, 1ms", "90000999999, 1m30s"})
  void formatDropsTheRestBelowAMillisecond(long nanos, String text) {
    assertThat(Durations.format(Duration.ofNanos(nanos))).isEqualTo(text);
  }

  @Test
  void theMaximumFormatsEvenWithARestBelowAMillisecond() {
    assertThat(Durations.MAX).isEqualTo(Duration.ofMillis(MAX_MILLIS));
    assertThat(Durations.format(Durations.MAX.plusNanos(999_999))).isEqualTo("106751d23h47m16s854ms");
  }

  @Test
  void oneMillisecondAboveTheMaximumIsRefused() {
    assertThatThrownBy(() -> Durations.format(Durations.MAX.plusMillis(1)))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo("PT2562047H47M16.855S isn't a duration Sigil can write");
              assertThat(e.help()).isEqualTo(HELP_RANGE);
            });
  }

  @Test
  void aDurationBeyondTheLongRangeOfMillisecondsIsRefusedNotOverflowed() {
    Duration huge = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);

    assertThatThrownBy(() -> Durations.format(huge))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo(huge + " isn't a duration Sigil can write");
              assertThat(e.help()).isEqualTo(HELP_RANGE);
            });
  }

  @Test
  void aNegativeDurationIsRefused() {
    assertThatThrownBy(() -> Durations.format(Duration.ofMillis(-1)))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo("PT-0.001S isn't a duration Sigil can write");
              assertThat(e.help())
                  .isEqualTo(
                      "pass a duration of zero or more; Durations.formatValue writes a negative one as"
                          + " the engine prints it");
            });
  }

  @ParameterizedTest(name = "\"{0}\" -> \"{1}\"")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ''                  | 0s
          0s                  | 0s
          90m                 | 1h30m
          1h30m               | 1h30m
          90s                 | 1m30s
          36h                 | 1d12h
          1000ms              | 1s
          1d0h0m0s0ms         | 1d
          9223372036854ms     | 106751d23h47m16s854ms
          """)
  void canonicalRewritesTextInTheCanonicalForm(String text, String canonical) {
    assertThat(Durations.canonical(text)).isEqualTo(canonical);
  }

  @Test
  void canonicalRefusesWhatParseRefuses() {
    assertThatThrownBy(() -> Durations.canonical("30m1h"))
        .isInstanceOf(EngineException.class)
        .hasMessage("invalid duration \"30m1h\"\n  help: " + HELP_ORDER);
  }

  @Test
  void parseReadsBackWhatFormatWrites() {
    SplittableRandom random = new SplittableRandom(15);
    for (int i = 0; i < 10_000; i++) {
      // Small values hit every zero-component shape; large ones reach the maximum.
      long millis = i % 2 == 0 ? random.nextLong(200_000_000L) : random.nextLong(MAX_MILLIS + 1);
      Duration duration = Duration.ofMillis(millis);

      assertThat(Durations.parse(Durations.format(duration))).as("%d ms", millis).isEqualTo(duration);
    }
  }

  @ParameterizedTest(name = "\"{0}\" is {1} ns")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0s                                  | 0
          ''                                  | 0
          -0s                                 | 0
          1h30m                               | 5400000000000
          90s                                 | 90000000000
          -15m                                | -900000000000
          1ms+500000ns                        | 1500000
          +500ns                              | 500
          -+500ns                             | -500
          1s+500ns                            | 1000000500
          -1d1ms+1ns                          | -86400001000001
          +999999ns                           | 999999
          +007ns                              | 7
          106751d23h47m16s854ms+775807ns      | 9223372036854775807
          9223372036854ms+775807ns            | 9223372036854775807
          -106751d23h47m16s854ms+775808ns     | -9223372036854775808
          """)
  void parseValueReadsWhatTheEnginePrintsExactlyToTheNanosecond(String text, long nanos) {
    assertThat(Durations.parseValue(text)).isEqualTo(Duration.ofNanos(nanos));
  }

  @ParameterizedTest(name = "\"{0}\": {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          -                                   | syntax
          -1.5h                               | syntax
          '- 1h'                              | syntax
          -h                                  | syntax
          1ms1ms+5ns                          | repeated
          -30m1h                              | order
          --1h                                | sign
          1h-30m                              | sign
          +1h                                 | sign
          -+1h                                | sign
          1ms+0ns                             | rest
          1ms+1000000ns                       | rest
          +99999999999999999999999ns          | rest
          1ms+5                               | rest
          1ms+5us                             | rest
          1ms+5ns1s                           | rest
          1ms+5ns+5ns                         | rest
          1ms+                                | rest
          '1ms+5ns '                          | rest
          106751d23h47m16s854ms+775808ns      | range
          -106751d23h47m16s854ms+775809ns     | range
          106751d23h47m16s855ms               | range
          -106752d                            | range
          """)
  void parseValueRefusesWhatTheEngineNeverPrintsAndSaysWhy(String text, String rule) {
    String help =
        switch (rule) {
          case "syntax" -> HELP_SYNTAX;
          case "repeated" -> HELP_REPEATED;
          case "order" -> HELP_ORDER;
          case "sign" -> "a duration value has at most one sign, a leading -, like \"-15m\"";
          case "rest" -> "a rest below a millisecond comes last, as + and 1 to 999999 ns, like \"1ms+500000ns\"";
          default -> HELP_RANGE;
        };

    assertThatThrownBy(() -> Durations.parseValue(text))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo("invalid duration \"" + text + "\"");
              assertThat(e.help()).isEqualTo(help);
            });
  }

  /** The engine's own table of printed duration values (native/engine value.rs), and a few more. */
  @ParameterizedTest(name = "{0} ns prints \"{1}\"")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0                      | 0s
          86400000000000         | 1d
          90000000000000         | 1d1h
          5400000000000          | 1h30m
          2592000000000000       | 30d
          -900000000000          | -15m
          1500000                | 1ms+500000ns
          500                    | +500ns
          -500                   | -+500ns
          1000000500             | 1s+500ns
          1                      | +1ns
          999999                 | +999999ns
          1000000                | 1ms
          -1000001               | -1ms+1ns
          9223372036854775807    | 106751d23h47m16s854ms+775807ns
          -9223372036854775808   | -106751d23h47m16s854ms+775808ns
          """)
  void formatValuePrintsAsTheEngineDoes(long nanos, String text) {
    assertThat(Durations.formatValue(Duration.ofNanos(nanos))).isEqualTo(text);
  }

  @Test
  void formatValueRefusesADurationOutsideGosRange() {
    Duration above = Durations.MAX_VALUE.plusNanos(1);
    Duration below = Durations.MIN_VALUE.minusNanos(1);

    for (Duration outside : List.of(above, below, Duration.ofDays(300 * 365L), Duration.ofSeconds(Long.MIN_VALUE))) {
      assertThatThrownBy(() -> Durations.formatValue(outside))
          .isInstanceOfSatisfying(
              EngineException.class,
              e -> {
                assertThat(e.message()).isEqualTo(outside + " isn't a duration Sigil can write");
                assertThat(e.help()).isEqualTo(HELP_RANGE);
              });
    }
  }

  @Test
  void theValueRangeIsGosNanosecondRange() {
    assertThat(Durations.MAX_VALUE).isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
    assertThat(Durations.MIN_VALUE).isEqualTo(Duration.ofNanos(Long.MIN_VALUE));
    assertThat(Durations.MAX_VALUE.toMillis()).isEqualTo(Durations.MAX.toMillis());
  }

  @Test
  void parseValueReadsBackWhatFormatValueWrites() {
    SplittableRandom random = new SplittableRandom(16);
    for (int i = 0; i < 10_000; i++) {
      // Small values hit every zero-component shape and both signs; large ones reach both ends.
      long nanos = i % 2 == 0 ? random.nextLong(-200_000_000_000L, 200_000_000_000L) : random.nextLong();
      Duration duration = Duration.ofNanos(nanos);

      assertThat(Durations.parseValue(Durations.formatValue(duration)))
          .as("%d ns", nanos)
          .isEqualTo(duration);
    }
  }

  @Test
  void aValueOfWholeNonNegativeMillisecondsPrintsAsTheCanonicalLiteral() {
    SplittableRandom random = new SplittableRandom(17);
    for (int i = 0; i < 10_000; i++) {
      Duration duration = Duration.ofMillis(random.nextLong(MAX_MILLIS + 1));

      assertThat(Durations.formatValue(duration)).isEqualTo(Durations.format(duration));
      assertThat(Durations.parseValue(Durations.format(duration))).isEqualTo(duration);
    }
  }

  @Test
  void nullArgumentsAreRefusedByName() {
    assertThatThrownBy(() -> Durations.parse(null)).isInstanceOf(NullPointerException.class).hasMessage("text");
    assertThatThrownBy(() -> Durations.canonical(null)).isInstanceOf(NullPointerException.class).hasMessage("text");
    assertThatThrownBy(() -> Durations.format(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("duration");
    assertThatThrownBy(() -> Durations.parseValue(null)).isInstanceOf(NullPointerException.class).hasMessage("text");
    assertThatThrownBy(() -> Durations.formatValue(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("duration");
  }
}
