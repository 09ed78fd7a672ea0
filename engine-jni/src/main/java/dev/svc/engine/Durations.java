package dev.svc.engine;

import dev.svc.engine.internal.GoQuote;
import java.time.Duration;
import java.util.Objects;

/**
 * Sigil's duration syntax on the host side: read a duration a policy or its payload writes, and write
 * one the engine reads. Neither Go's nor ISO-8601's syntax: a duration is a sequence of
 * {@code «digits»«unit»} components with the units {@code d} (24 h), {@code h}, {@code m}, {@code s}
 * and {@code ms}, largest first, each at most once, such as {@code 1h30m} or {@code 90s}. The empty
 * text is zero. There is no sign, fraction, space or unit below a millisecond.
 *
 * <pre>{@code
 * Durations.parse("1h30m");                   // PT1H30M
 * Durations.format(Duration.ofMinutes(90));   // "1h30m"
 * Durations.canonical("90m");                 // "1h30m"
 * }</pre>
 *
 * <p>The largest duration is {@link #MAX}: 9 223 372 036 854 ms, the range of Go's nanosecond
 * durations (about 292 years).
 *
 * <p>The engine writes a rest below a millisecond as a {@code +«n»ns} suffix; this grammar refuses
 * it, so strip it before parsing such a payload value.
 *
 * <p><b>Thread safety:</b> stateless and thread-safe.
 */
public final class Durations {

  /** The largest duration Sigil can write: 9 223 372 036 854 ms, about 292 years. */
  public static final Duration MAX = Duration.ofMillis(9_223_372_036_854L);

  private static final long MAX_MILLIS = MAX.toMillis();
  // A day count above this is out of range as soon as it is read, as in the engine's own parser.
  private static final long MAX_DAYS = Long.MAX_VALUE / 24;

  private static final String HELP_SYNTAX = "units are d, h, m, s and ms, largest first, each at most once: \"1h30m\"";
  private static final String HELP_REPEATED = "each unit may appear once in a duration; add the components together";
  private static final String HELP_ORDER = "write the largest unit first, like \"1h30m\"";
  private static final String HELP_RANGE = "a duration is at most about 292 years";
  private static final String HELP_NEGATIVE = "pass a duration of zero or more";

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
   * The duration {@code text} writes.
   *
   * @param text a duration in Sigil's syntax, such as {@code 1h30m}; the empty text is zero
   * @return the duration, between zero and {@link #MAX}
   * @throws EngineException {@code invalid duration "«text»"} (the text Go-quoted) when the text
   *     isn't Sigil's syntax, repeats a unit, puts a smaller unit before a larger one, or is larger
   *     than {@link #MAX}; the first problem from the left wins, and the help says which it is
   * @throws NullPointerException if {@code text} is null
   */
  public static Duration parse(String text) {
    Objects.requireNonNull(text, "text");
    Unit last = null;
    long total = 0;
    int at = 0;
    while (at < text.length()) {
      int digitsEnd = digitsEnd(text, at);
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
    return Duration.ofMillis(total);
  }

  /**
   * {@code duration} in Sigil's canonical form: the largest units first, zero components left out,
   * zero as {@code 0s}. A rest below a millisecond is dropped (1.5 ms is {@code 1ms}).
   *
   * @param duration between zero and {@link #MAX} (plus less than a millisecond)
   * @return the canonical text, such as {@code 1h30m}
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
    long rest = duration.toMillis();
    if (rest == 0) {
      return "0s";
    }
    StringBuilder text = new StringBuilder();
    for (Unit unit : Unit.ALL) {
      long count = rest / unit.millis;
      if (count > 0) {
        text.append(count).append(unit.symbol);
        rest -= count * unit.millis;
      }
    }
    return text.toString();
  }

  /**
   * {@code text} rewritten in canonical form: {@code format(parse(text))}, so {@code 90m} becomes
   * {@code 1h30m} and the empty text {@code 0s}.
   *
   * @param text a duration in Sigil's syntax
   * @return the canonical text
   * @throws EngineException as {@link #parse(String)} does
   * @throws NullPointerException if {@code text} is null
   */
  public static String canonical(String text) {
    return format(parse(text));
  }

  private static int digitsEnd(String text, int from) {
    int end = from;
    while (end < text.length() && text.charAt(end) >= '0' && text.charAt(end) <= '9') {
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
