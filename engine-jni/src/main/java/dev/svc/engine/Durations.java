package dev.svc.engine;

import dev.svc.engine.internal.GoQuote;
import java.time.Duration;
import java.util.Objects;

/**
 * Sigil's duration syntax on the host side: read a duration a policy or its payload writes, and write
 * one the engine reads. Neither Go's nor ISO-8601's syntax.
 *
 * <p>Two forms, as the language has them (language-core §2.5.1 and §6.3):
 *
 * <ul>
 *   <li>The <b>literal</b> form, which a policy's source and the engine's inputs take: a sequence of
 *       {@code «digits»«unit»} components with the units {@code d} (24 h), {@code h}, {@code m},
 *       {@code s} and {@code ms}, largest first, each at most once, such as {@code 1h30m} or {@code
 *       90s}. The empty text is zero. There is no sign, fraction, space or unit below a millisecond.
 *       {@link #parse(String)}, {@link #format(Duration)} and {@link #canonical(String)} read and
 *       write it (bindings.md §15).
 *   <li>The <b>value</b> form, in which the engine prints a duration value: in payloads, host function
 *       arguments, conditions and test messages. It is the canonical literal with a leading {@code -}
 *       when negative and a rest below a millisecond appended as {@code +«n»ns}: {@code -15m},
 *       {@code 1ms+500000ns}, {@code +500ns}. It isn't valid source. {@link #parseValue(String)} and
 *       {@link #formatValue(Duration)} read and write it, exact to the nanosecond.
 * </ul>
 *
 * <pre>{@code
 * Durations.parse("1h30m");                       // PT1H30M
 * Durations.format(Duration.ofMinutes(90));       // "1h30m"
 * Durations.canonical("90m");                     // "1h30m"
 * Durations.parseValue("-1ms+500000ns");          // PT-0.0015S
 * Durations.formatValue(Duration.ofNanos(1500));  // "+1500ns"
 * }</pre>
 *
 * <p>A literal is at most {@link #MAX}: 9 223 372 036 854 ms, the range of Go's nanosecond durations
 * (about 292 years). A value spans that range exactly: from {@link #MIN_VALUE} to {@link #MAX_VALUE}
 * nanoseconds.
 *
 * <p>Every refusal is an {@link EngineException} {@code invalid duration "«text»"} (the text
 * Go-quoted) whose help says which rule the text breaks, or {@code «duration» isn't a duration Sigil
 * can write} for a {@link Duration} outside the range.
 *
 * <p><b>Thread safety:</b> stateless and thread-safe.
 */
public final class Durations {

  /** The largest duration a literal can write: 9 223 372 036 854 ms, about 292 years. */
  public static final Duration MAX = Duration.ofMillis(9_223_372_036_854L);

  /** The largest duration value: {@link Long#MAX_VALUE} nanoseconds, Go's largest duration. */
  public static final Duration MAX_VALUE = Duration.ofNanos(Long.MAX_VALUE);

  /** The smallest duration value: {@link Long#MIN_VALUE} nanoseconds, Go's smallest duration. */
  public static final Duration MIN_VALUE = Duration.ofNanos(Long.MIN_VALUE);

  private static final long MAX_MILLIS = MAX.toMillis();
  private static final long NANOS_PER_MILLI = 1_000_000L;
  // A day count above this is out of range as soon as it is read, as in the engine's own parser.
  private static final long MAX_DAYS = Long.MAX_VALUE / 24;
  private static final String REST_UNIT = "ns";

  private static final String HELP_SYNTAX = "units are d, h, m, s and ms, largest first, each at most once: \"1h30m\"";
  private static final String HELP_REPEATED = "each unit may appear once in a duration; add the components together";
  private static final String HELP_ORDER = "write the largest unit first, like \"1h30m\"";
  private static final String HELP_RANGE = "a duration is at most about 292 years";
  private static final String HELP_NEGATIVE =
      "pass a duration of zero or more; Durations.formatValue writes a negative one as the engine"
          + " prints it";
  private static final String HELP_REST =
      "a rest below a millisecond comes last, as + and 1 to 999999 ns, like \"1ms+500000ns\"";
  private static final String HELP_SIGN = "a duration value has at most one sign, a leading -, like \"-15m\"";

  private Durations() {}

  /** The units largest first: a unit's index is its rank, so a later component needs a higher rank. */
  private enum Unit {
    DAY("d", 86_400_000L),
    HOUR("h", 3_600_000L),
    MINUTE("m", 60_000L),
    SECOND("s", 1_000L),
    MILLI("ms", 1L);

    private static final Unit[] ALL = values();

    final String symbol;
    final long millis;

    Unit(String symbol, long millis) {
      this.symbol = symbol;
      this.millis = millis;
    }

    /** The unit {@code text} starts with at {@code at}, or null; {@code ms} wins over {@code m}. */
    static Unit at(String text, int at) {
      if (text.startsWith(MILLI.symbol, at)) {
        return MILLI;
      }
      for (Unit unit : ALL) {
        if (text.startsWith(unit.symbol, at)) {
          return unit;
        }
      }
      return null;
    }
  }

  /**
   * The duration the literal {@code text} writes.
   *
   * @param text a duration literal, such as {@code 1h30m}; the empty text is zero
   * @return the duration, between zero and {@link #MAX}
   * @throws EngineException {@code invalid duration "«text»"} when the text isn't a literal (a sign,
   *     a fraction, a space, an unknown unit or a number without one), repeats a unit, puts a
   *     smaller unit before a larger one, or is larger than {@link #MAX}; the first problem from the
   *     left wins, and the help says which it is
   * @throws NullPointerException if {@code text} is null
   */
  public static Duration parse(String text) {
    Objects.requireNonNull(text, "text");
    return Duration.ofMillis(literalMillis(text, 0, text.length()));
  }

  /**
   * {@code duration} as a literal in canonical form: the largest units first, zero components left
   * out, zero as {@code 0s}. A rest below a millisecond is dropped (1.5 ms is {@code 1ms}); {@link
   * #formatValue(Duration)} keeps it.
   *
   * @param duration between zero and {@link #MAX} (plus less than a millisecond)
   * @return the canonical literal, such as {@code 1h30m}
   * @throws EngineException {@code «duration» isn't a duration Sigil can write} when it is negative
   *     or its whole milliseconds are more than {@link #MAX}
   * @throws NullPointerException if {@code duration} is null
   */
  public static String format(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    if (duration.isNegative()) {
      throw unwritable(duration, HELP_NEGATIVE);
    }
    if (duration.compareTo(MAX.plusMillis(1)) >= 0) {
      throw unwritable(duration, HELP_RANGE);
    }
    long millis = duration.toMillis();
    return millis == 0 ? "0s" : components(millis);
  }

  /**
   * The literal {@code text} rewritten in canonical form: {@code format(parse(text))}, so {@code
   * 90m} becomes {@code 1h30m} and the empty text {@code 0s}.
   *
   * @param text a duration literal
   * @return the canonical literal
   * @throws EngineException as {@link #parse(String)} does
   * @throws NullPointerException if {@code text} is null
   */
  public static String canonical(String text) {
    return format(parse(text));
  }

  /**
   * The duration value {@code text} writes, as the engine prints values: an optional leading
   * {@code -}, a literal, then an optional rest below a millisecond, {@code +«n»ns} with {@code n}
   * from 1 to 999 999. Every literal {@link #parse(String)} reads is a value too; {@code -+500ns} is
   * minus 500 ns. This reads a duration of a payload, a host function argument or a test message.
   *
   * @param text a duration value, such as {@code 1h30m}, {@code -15m} or {@code 1ms+500000ns}
   * @return the duration, exact to the nanosecond, between {@link #MIN_VALUE} and {@link
   *     #MAX_VALUE}
   * @throws EngineException {@code invalid duration "«text»"} when the text breaks a rule of the
   *     literal, has a sign other than one leading {@code -}, has a rest that isn't last, isn't in
   *     nanoseconds or isn't below a millisecond, or is outside the range; the help says which
   * @throws NullPointerException if {@code text} is null
   */
  public static Duration parseValue(String text) {
    Objects.requireNonNull(text, "text");
    boolean negative = text.startsWith("-");
    int from = negative ? 1 : 0;
    int plus = text.indexOf('+', from);
    int literalEnd = plus < 0 ? text.length() : plus;
    if (text.indexOf('-', from) >= 0) {
      throw invalid(text, HELP_SIGN);
    }
    if (negative && from == text.length()) {
      throw invalid(text, HELP_SYNTAX);
    }
    long millis = literalMillis(text, from, literalEnd);
    long rest = plus < 0 ? 0 : restNanos(text, plus);
    // The magnitude of the smallest value is one more than the largest: Go's int64 nanoseconds.
    if (rest - (negative ? 1 : 0) > Long.MAX_VALUE - millis * NANOS_PER_MILLI) {
      throw invalid(text, HELP_RANGE);
    }
    Duration magnitude = Duration.ofMillis(millis).plusNanos(rest);
    return negative ? magnitude.negated() : magnitude;
  }

  /**
   * {@code duration} as the engine prints a duration value: {@code 0s} for zero, else a leading
   * {@code -} when negative, the canonical literal of the whole milliseconds (left out when there
   * are none) and a rest below a millisecond as {@code +«n»ns}. So 1.5 ms is {@code 1ms+500000ns},
   * 500 ns is {@code +500ns} and minus 15 minutes {@code -15m}.
   *
   * @param duration between {@link #MIN_VALUE} and {@link #MAX_VALUE}
   * @return the text the engine prints for the same value
   * @throws EngineException {@code «duration» isn't a duration Sigil can write} when it is outside
   *     Go's nanosecond range (about 292 years either way)
   * @throws NullPointerException if {@code duration} is null
   */
  public static String formatValue(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    if (duration.compareTo(MIN_VALUE) < 0 || duration.compareTo(MAX_VALUE) > 0) {
      throw unwritable(duration, HELP_RANGE);
    }
    if (duration.isZero()) {
      return "0s";
    }
    // abs() of the smallest value is one nanosecond past the largest; Duration holds it.
    Duration magnitude = duration.abs();
    long millis = magnitude.toMillis();
    long rest = magnitude.getNano() % NANOS_PER_MILLI;
    StringBuilder text = new StringBuilder();
    if (duration.isNegative()) {
      text.append('-');
    }
    if (millis > 0) {
      text.append(components(millis));
    }
    if (rest > 0) {
      text.append('+').append(rest).append(REST_UNIT);
    }
    return text.toString();
  }

  /**
   * The whole milliseconds of the literal {@code text[from, to)}; problems quote all of {@code
   * text}. Checked component by component from the left, first problem wins, as the engine does.
   */
  private static long literalMillis(String text, int from, int to) {
    Unit last = null;
    long total = 0;
    int at = from;
    while (at < to) {
      int digitsEnd = digitsEnd(text, at, to);
      // No unit reaches past `to`: the text ends there or a rest's + follows, which no unit holds.
      Unit unit = digitsEnd > at ? Unit.at(text, digitsEnd) : null;
      if (unit == null) {
        throw invalid(text, HELP_SYNTAX);
      }
      if (last == unit) {
        throw invalid(text, HELP_REPEATED);
      }
      if (last != null && unit.ordinal() < last.ordinal()) {
        throw invalid(text, HELP_ORDER);
      }
      long count = saturatedCount(text, at, digitsEnd);
      if (unit == Unit.DAY && count > MAX_DAYS) {
        throw invalid(text, HELP_RANGE);
      }
      total = saturatedAdd(total, saturatedMultiply(count, unit.millis));
      last = unit;
      at = digitsEnd + unit.symbol.length();
    }
    if (total > MAX_MILLIS) {
      throw invalid(text, HELP_RANGE);
    }
    return total;
  }

  /** The nanoseconds of the rest {@code +«n»ns} that starts at {@code plus} and ends the text. */
  private static long restNanos(String text, int plus) {
    int digitsEnd = digitsEnd(text, plus + 1, text.length());
    boolean shaped =
        digitsEnd > plus + 1
            && text.startsWith(REST_UNIT, digitsEnd)
            && digitsEnd + REST_UNIT.length() == text.length();
    long nanos = shaped ? saturatedCount(text, plus + 1, digitsEnd) : 0;
    if (!shaped && (plus == 0 || text.charAt(plus - 1) == '-')) {
      // A + where a sign goes, as in +1h: the value has no such sign.
      throw invalid(text, HELP_SIGN);
    }
    if (nanos < 1 || nanos >= NANOS_PER_MILLI) {
      throw invalid(text, HELP_REST);
    }
    return nanos;
  }

  /** The canonical components of a positive number of milliseconds, largest unit first. */
  private static String components(long millis) {
    StringBuilder text = new StringBuilder();
    long rest = millis;
    for (Unit unit : Unit.ALL) {
      long count = rest / unit.millis;
      if (count > 0) {
        text.append(count).append(unit.symbol);
        rest -= count * unit.millis;
      }
    }
    return text.toString();
  }

  private static int digitsEnd(String text, int from, int to) {
    int end = from;
    while (end < to && text.charAt(end) >= '0' && text.charAt(end) <= '9') {
      end++;
    }
    return end;
  }

  // Counts past Long.MAX_VALUE are out of range anyway; saturating keeps the checks that come
  // before the range check (order, repetition) in charge, as in the engine.
  private static long saturatedCount(String text, int from, int to) {
    long count = 0;
    for (int i = from; i < to; i++) {
      int digit = text.charAt(i) - '0';
      if (count > (Long.MAX_VALUE - digit) / 10) {
        return Long.MAX_VALUE;
      }
      count = count * 10 + digit;
    }
    return count;
  }

  private static long saturatedMultiply(long count, long unitMillis) {
    return count > Long.MAX_VALUE / unitMillis ? Long.MAX_VALUE : count * unitMillis;
  }

  private static long saturatedAdd(long a, long b) {
    return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
  }

  private static EngineException invalid(String text, String help) {
    return new EngineException("invalid duration " + GoQuote.quote(text), help);
  }

  private static EngineException unwritable(Duration duration, String help) {
    return new EngineException(duration + " isn't a duration Sigil can write", help);
  }
}
