package dev.svc.engine.kind;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.engine.Durations;
import dev.svc.engine.EngineException;
import dev.svc.engine.internal.GoQuote;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Payload defaults as a kind file writes them (bindings.md §13.5): the JSON value a host gives,
 * printed as a constant of the field's type exactly as the engine's canonical text prints it
 * (language-policies §2.14).
 */
final class Constants {

  // The minimum int64's magnitude isn't a valid literal, so the engine writes it as arithmetic
  // over two that are; the reference bindings' bare decimal would not load.
  private static final String MIN_INT = "(-9223372036854775807 - 1)";
  // Seventeen significant digits always read back as the same double.
  private static final int DOUBLE_DIGITS = 17;
  private static final List<RoundingMode> NEAREST_FIRST =
      List.of(RoundingMode.HALF_EVEN, RoundingMode.FLOOR, RoundingMode.CEILING);
  // A JSON number: a map key of a numeric type that reads as one is that number.
  private static final Pattern JSON_NUMBER =
      Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

  private Constants() {}

  /** Why a value isn't a constant of a type; its message is the problem's text. */
  static final class NotAConstant extends Exception {

    private static final long serialVersionUID = 1L;

    NotAConstant(String message) {
      super(message, null, false, false);
    }
  }

  /** {@code value} as a constant of {@code type}, such as {@code "#alerts"} or {@code 1h30m}. */
  static String text(Type type, JsonNode value) throws NotAConstant {
    if (type instanceof Type.Scalar scalar) {
      return scalarText(scalar, value);
    }
    if (type instanceof Type.ListOf list && value.isArray()) {
      List<String> elements = new ArrayList<>();
      for (JsonNode element : value) {
        elements.add(text(list.element(), element));
      }
      return "[" + String.join(", ", elements) + "]";
    }
    if (type instanceof Type.MapOf map && value.isObject()) {
      return mapText(map, value);
    }
    if (type instanceof Type.OptionalOf optional) {
      return value.isNull() ? "none" : text(optional.element(), value);
    }
    if (type instanceof Type.Enumeration enumeration
        && value.isTextual()
        && enumeration.values().contains(value.textValue())) {
      return value.textValue();
    }
    if (type instanceof Type.Structure) {
      throw new NotAConstant(
          "a default of struct type "
              + type
              + " can't be written in a kind file: give struct-typed payload fields no default");
    }
    throw mismatch(type, value);
  }

  private static String scalarText(Type.Scalar type, JsonNode value) throws NotAConstant {
    switch (type) {
      case STRING:
        if (value.isTextual()) {
          return GoQuote.quote(value.textValue());
        }
        break;
      case BOOL:
        if (value.isBoolean()) {
          return Boolean.toString(value.booleanValue());
        }
        break;
      case INT:
        if (value.isIntegralNumber() && value.canConvertToLong()) {
          long n = value.longValue();
          return n == Long.MIN_VALUE ? MIN_INT : Long.toString(n);
        }
        break;
      case FLOAT:
        if (value.isNumber() && Double.isFinite(value.doubleValue())) {
          return floatText(value.doubleValue());
        }
        break;
      case DURATION:
        if (value.isTextual()) {
          return durationText(value.textValue());
        }
        break;
      case TIMESTAMP:
        throw new NotAConstant(
            "a timestamp field can't have a default: timestamps come from input; there's no literal"
                + " for one");
    }
    throw mismatch(type, value);
  }

  private static String durationText(String text) throws NotAConstant {
    try {
      return Durations.canonical(text);
    } catch (EngineException e) {
      throw new NotAConstant(e.message());
    }
  }

  private static String mapText(Type.MapOf type, JsonNode value) throws NotAConstant {
    boolean numericKeys = type.key() == Type.INT || type.key() == Type.FLOAT;
    List<String> entries = new ArrayList<>();
    for (Map.Entry<String, JsonNode> entry : value.properties()) {
      JsonNode key =
          numericKeys
              ? numberOrText(entry.getKey())
              : JsonNodeFactory.instance.textNode(entry.getKey());
      entries.add(text(type.key(), key) + ": " + text(type.value(), entry.getValue()));
    }
    // By UTF-8 bytes, as Go and the engine sort them; UTF-16 order differs above U+FFFF.
    entries.sort((a, b) -> Arrays.compareUnsigned(utf8(a), utf8(b)));
    return "{" + String.join(", ", entries) + "}";
  }

  private static JsonNode numberOrText(String key) {
    Matcher number = JSON_NUMBER.matcher(key);
    if (!number.matches()) {
      return JsonNodeFactory.instance.textNode(key);
    }
    boolean whole = number.group(2) == null && number.group(3) == null;
    return whole
        ? JsonNodeFactory.instance.numberNode(new BigInteger(key))
        : JsonNodeFactory.instance.numberNode(Double.parseDouble(key));
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The shortest decimal that reads back as {@code value}, without an exponent, with {@code .0}
   * when it has no point: {@code 0.5}, {@code 2.0}, {@code -0.0}, {@code 1e21} as {@code
   * 1000000000000000000000.0}. Computed here rather than by {@link Double#toString(double)}, which
   * before JDK 19 sometimes gives more digits than needed.
   */
  static String floatText(double value) {
    String plain;
    if (value == 0) {
      plain = Double.doubleToRawLongBits(value) < 0 ? "-0" : "0";
    } else {
      plain = shortest(value).stripTrailingZeros().toPlainString();
    }
    return plain.indexOf('.') < 0 ? plain + ".0" : plain;
  }

  // The shortest decimal that reads back is one of the two nearest decimals with that many
  // digits, below and above; when both read back, the closer one (the nearest rounding) wins.
  private static BigDecimal shortest(double value) {
    BigDecimal exact = new BigDecimal(value);
    for (int digits = 1; digits < DOUBLE_DIGITS; digits++) {
      for (RoundingMode mode : NEAREST_FIRST) {
        BigDecimal candidate = exact.round(new MathContext(digits, mode));
        if (candidate.doubleValue() == value) {
          return candidate;
        }
      }
    }
    return exact.round(new MathContext(DOUBLE_DIGITS, RoundingMode.HALF_EVEN));
  }

  private static NotAConstant mismatch(Type type, JsonNode value) {
    return new NotAConstant(value + " isn't a constant of type " + type);
  }
}
