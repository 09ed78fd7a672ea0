package dev.svc.engine.kind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.engine.internal.AbiCodec;
import java.math.BigDecimal;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link Constants}: payload defaults as the kind file writes them (bindings.md §13.5). */
class ConstantsTest {

  private static final Type.Enumeration LEVEL = Type.enumeration("L", "low", "high");

  private static JsonNode json(String text) {
    try {
      return AbiCodec.MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(text, e);
    }
  }

  static Stream<Arguments> constants() {
    return Stream.of(
        arguments(Type.STRING, "\"x\"", "\"x\""),
        arguments(Type.STRING, "\"a\\\"b\\\\c\\n\"", "\"a\\\"b\\\\c\\n\""),
        arguments(Type.STRING, "\"\\u0001\\u007f\\u0080\\u2028\"", "\"\\x01\\x7f\\u0080\\u2028\""),
        arguments(Type.STRING, "\"✓ é 😀 ä\"", "\"✓ é 😀 ä\""),
        arguments(Type.BOOL, "false", "false"),
        arguments(Type.INT, "-3", "-3"),
        arguments(Type.INT, "9223372036854775807", "9223372036854775807"),
        arguments(Type.INT, "-9223372036854775808", "(-9223372036854775807 - 1)"),
        arguments(Type.FLOAT, "0.5", "0.5"),
        arguments(Type.FLOAT, "2", "2.0"),
        arguments(Type.FLOAT, "1e21", "1000000000000000000000.0"),
        arguments(Type.FLOAT, "1e-7", "0.0000001"),
        arguments(Type.FLOAT, "-0.0", "-0.0"),
        arguments(Type.DURATION, "\"90m\"", "1h30m"),
        arguments(Type.DURATION, "\"\"", "0s"),
        arguments(Type.list(Type.INT), "[3, 1]", "[3, 1]"),
        arguments(Type.list(Type.STRING), "[]", "[]"),
        arguments(
            Type.map(Type.STRING, Type.INT),
            "{\"b\": 2, \"a\": 1, \"ä\": 3, \"Z\": 4}",
            "{\"Z\": 4, \"a\": 1, \"b\": 2, \"ä\": 3}"),
        arguments(
            Type.map(Type.INT, Type.BOOL), "{\"10\": true, \"2\": false}", "{10: true, 2: false}"),
        arguments(Type.map(Type.FLOAT, Type.INT), "{\"1\": 1, \"0.5\": 2}", "{0.5: 2, 1.0: 1}"),
        arguments(Type.map(Type.STRING, Type.STRING), "{}", "{}"),
        arguments(Type.optional(Type.INT), "4", "4"),
        arguments(Type.list(Type.optional(Type.INT)), "[1, null]", "[1, none]"),
        arguments(LEVEL, "\"high\"", "high"));
  }

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @MethodSource("constants")
  void aValueOfTheTypePrintsAsTheEngineWritesIt(Type type, String value, String text)
      throws Constants.NotAConstant {
    assertThat(Constants.text(type, json(value))).isEqualTo(text);
  }

  // UTF-16 order would put U+1F600 (a surrogate pair) before U+FFFD; UTF-8 order puts it after.
  @Test
  void mapEntriesSortByTheirUtf8Bytes() throws Constants.NotAConstant {
    Type.MapOf map = Type.map(Type.STRING, Type.INT);

    assertThat(Constants.text(map, json("{\"😀\": 1, \"\uFFFD\": 2}")))
        .isEqualTo("{\"\uFFFD\": 2, \"😀\": 1}");
  }

  static Stream<Arguments> refusals() {
    return Stream.of(
        arguments(Type.STRING, "1", "1 isn't a constant of type string"),
        arguments(Type.INT, "1.5", "1.5 isn't a constant of type int"),
        arguments(Type.INT, "2.0", "2.0 isn't a constant of type int"),
        arguments(Type.INT, "\"1\"", "\"1\" isn't a constant of type int"),
        arguments(
            Type.INT, "18446744073709551616", "18446744073709551616 isn't a constant of type int"),
        arguments(Type.INT, "null", "null isn't a constant of type int"),
        arguments(Type.BOOL, "\"true\"", "\"true\" isn't a constant of type bool"),
        arguments(Type.FLOAT, "\"x\"", "\"x\" isn't a constant of type float"),
        arguments(Type.DURATION, "5", "5 isn't a constant of type duration"),
        arguments(Type.DURATION, "\"soon\"", "invalid duration \"soon\""),
        arguments(
            Type.TIMESTAMP,
            "\"2026-01-01T00:00:00Z\"",
            "a timestamp field can't have a default: timestamps come from input; there's no"
                + " literal for one"),
        arguments(Type.list(Type.INT), "{}", "{} isn't a constant of type list<int>"),
        arguments(Type.list(Type.INT), "[\"a\"]", "\"a\" isn't a constant of type int"),
        arguments(
            Type.map(Type.STRING, Type.INT), "[]", "[] isn't a constant of type map<string, int>"),
        arguments(Type.map(Type.INT, Type.INT), "{\"x\": 1}", "\"x\" isn't a constant of type int"),
        arguments(Type.map(Type.INT, Type.INT), "{\"1.5\": 1}", "1.5 isn't a constant of type int"),
        arguments(LEVEL, "\"mid\"", "\"mid\" isn't a constant of type L"),
        arguments(
            Type.structure("S").field("a", Type.INT),
            "{\"a\": 1}",
            "a default of struct type S can't be written in a kind file: give struct-typed payload"
                + " fields no default"));
  }

  @ParameterizedTest(name = "{0} {1}: {2}")
  @MethodSource("refusals")
  void aValueThatIsNotAConstantOfTheTypeSaysWhy(Type type, String value, String why) {
    assertThatThrownBy(() -> Constants.text(type, json(value)))
        .isInstanceOf(Constants.NotAConstant.class)
        .hasMessage(why);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0.1                       | 0.1
          0.30000000000000004       | 0.30000000000000004
          1e23                      | 100000000000000000000000.0
          123456789.125             | 123456789.125
          -1.5                      | -1.5
          """)
  void floatsPrintTheShortestDigitsThatReadBackWithoutAnExponent(double value, String text) {
    assertThat(Constants.floatText(value)).isEqualTo(text);
    assertThat(Double.parseDouble(text)).isEqualTo(value);
  }

  // JDK 17's Double.toString writes 4.9E-324 for the smallest double, one digit more than needed.
  @Test
  void floatsAtTheEndsOfTheRangeAreWrittenOutInFull() {
    assertThat(Constants.floatText(Double.MIN_VALUE)).isEqualTo("0." + "0".repeat(323) + "5");
    assertThat(Constants.floatText(1e300)).isEqualTo("1" + "0".repeat(300) + ".0");
  }

  // Double.toString's digits read back too, so the shortest digits are never more than its.
  @Test
  void floatsReadBackAndAreNeverLongerThanJavasOwnDigits() {
    SplittableRandom random = new SplittableRandom(20261121L);
    for (int i = 0; i < 2_000; i++) {
      double value = Double.longBitsToDouble(random.nextLong());
      if (!Double.isFinite(value)) {
        continue;
      }
      String text = Constants.floatText(value);

      assertThat(Double.parseDouble(text)).as(text).isEqualTo(value);
      assertThat(significantDigits(new BigDecimal(text)))
          .as(text)
          .isLessThanOrEqualTo(significantDigits(new BigDecimal(Double.toString(value))));
    }
  }

  private static int significantDigits(BigDecimal decimal) {
    return decimal.signum() == 0 ? 1 : decimal.stripTrailingZeros().precision();
  }
}
