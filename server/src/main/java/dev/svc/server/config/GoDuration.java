package dev.svc.server.config;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;

/**
 * Go's duration syntax ({@code time.ParseDuration}), which the configuration uses for every duration
 * key (access-server spec §2.4): an optional sign, then one or more {@code «decimal»«unit»} parts
 * with the units {@code ns}, {@code us} (or {@code µs}, {@code μs}), {@code ms}, {@code s}, {@code m}
 * and {@code h}, such as {@code 90s}, {@code 1h30m} or {@code 1.5h}; a bare {@code 0} is zero. There
 * is no day unit. Not Sigil's duration syntax ({@code dev.svc.engine.Durations}), which policies use.
 *
 * <p><b>Thread safety:</b> stateless and thread-safe.
 */
public final class GoDuration {

  private static final BigInteger MAX_NANOS = BigInteger.valueOf(Long.MAX_VALUE);
  // Go's range is that of an int64 of nanoseconds: one more below zero than above it.
  private static final BigInteger MIN_NANOS = BigInteger.valueOf(Long.MIN_VALUE).negate();

  private GoDuration() {}

  /**
   * The duration {@code text} writes, accepting exactly what Go's {@code time.ParseDuration} accepts.
   * A fraction below a nanosecond is dropped, as Go drops it.
   *
   * @param text a Go duration, such as {@code 1h30m}
   * @return the duration; negative when the text starts with {@code -}
   * @throws IllegalArgumentException if {@code text} isn't a Go duration, or is beyond about 292
   *     years either way; the message says which, for a person
   */
  public static Duration parse(String text) {
    String rest = text;
    boolean negative = false;
    if (!rest.isEmpty() && (rest.charAt(0) == '-' || rest.charAt(0) == '+')) {
      negative = rest.charAt(0) == '-';
      rest = rest.substring(1);
    }
    if (rest.equals("0")) {
      return Duration.ZERO;
    }
    if (rest.isEmpty()) {
      throw invalid(text);
    }
    BigInteger nanos = BigInteger.ZERO;
    int at = 0;
    while (at < rest.length()) {
      int start = at;
      while (at < rest.length() && isNumberChar(rest.charAt(at))) {
        at++;
      }
      String number = rest.substring(start, at);
      if (!isDecimal(number)) {
        throw invalid(text);
      }
      int unitStart = at;
      while (at < rest.length() && !isNumberChar(rest.charAt(at))) {
        at++;
      }
      long unit = unitNanos(rest.substring(unitStart, at), text);
      nanos = nanos.add(new BigDecimal(number.endsWith(".") ? number + "0" : number)
          .multiply(BigDecimal.valueOf(unit))
          .toBigInteger());
    }
    if (nanos.compareTo(negative ? MIN_NANOS : MAX_NANOS) > 0) {
      throw new IllegalArgumentException("`" + text + "` is out of range: a duration is at most about 292 years");
    }
    return toDuration(negative ? nanos.negate() : nanos);
  }

  private static Duration toDuration(BigInteger nanos) {
    BigInteger[] split = nanos.divideAndRemainder(BigInteger.valueOf(1_000_000_000L));
    return Duration.ofSeconds(split[0].longValueExact(), split[1].longValueExact());
  }

  private static boolean isNumberChar(char c) {
    return c >= '0' && c <= '9' || c == '.';
  }

  // Digits with at most one dot and at least one digit: "5", "5.", ".5", "1.5"; not "" or ".".
  private static boolean isDecimal(String number) {
    int dot = number.indexOf('.');
    if (dot != number.lastIndexOf('.')) {
      return false;
    }
    return number.length() > (dot < 0 ? 0 : 1);
  }

  private static long unitNanos(String unit, String text) {
    switch (unit) {
      case "ns":
        return 1L;
      case "us":
      case "\u00b5s":
      case "\u03bcs":
        return 1_000L;
      case "ms":
        return 1_000_000L;
      case "s":
        return 1_000_000_000L;
      case "m":
        return 60_000_000_000L;
      case "h":
        return 3_600_000_000_000L;
      default:
        throw unit.isEmpty()
            ? new IllegalArgumentException("`" + text + "` has a number without a unit")
            : new IllegalArgumentException("`" + text + "` has the unknown unit `" + unit + "`");
    }
  }

  private static IllegalArgumentException invalid(String text) {
    return new IllegalArgumentException("`" + text + "` isn't a duration");
  }
}
