package dev.svc.server.config;

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

  // 2^63: Go's range is that of an int64 of nanoseconds, one more below zero than above it.
  private static final BigInteger LIMIT = BigInteger.ONE.shiftLeft(63);
  private static final BigInteger BILLION = BigInteger.valueOf(1_000_000_000L);

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
    // Go's algorithm step for step, fraction arithmetic in float64 included, so every input gives
    // Go's nanoseconds to the last digit.
    BigInteger total = BigInteger.ZERO;
    int at = 0;
    while (at < rest.length()) {
      int start = at;
      BigInteger whole = BigInteger.ZERO;
      while (at < rest.length() && isDigit(rest.charAt(at))) {
        whole = whole.multiply(BigInteger.TEN).add(BigInteger.valueOf(rest.charAt(at) - '0'));
        if (whole.compareTo(LIMIT) > 0) {
          throw outOfRange(text);
        }
        at++;
      }
      boolean pre = at > start;
      boolean post = false;
      long fraction = 0;
      double scale = 1;
      if (at < rest.length() && rest.charAt(at) == '.') {
        at++;
        int fractionStart = at;
        boolean overflow = false;
        while (at < rest.length() && isDigit(rest.charAt(at))) {
          // Digits past int64's precision are read and ignored, as Go ignores them.
          if (!overflow && fraction <= (Long.MAX_VALUE - 9) / 10) {
            fraction = fraction * 10 + (rest.charAt(at) - '0');
            scale *= 10;
          } else {
            overflow = true;
          }
          at++;
        }
        post = at > fractionStart;
      }
      if (!pre && !post) {
        throw invalid(text);
      }
      int unitStart = at;
      while (at < rest.length() && !isDigit(rest.charAt(at)) && rest.charAt(at) != '.') {
        at++;
      }
      long unit = unitNanos(rest.substring(unitStart, at), text);
      BigInteger part = whole.multiply(BigInteger.valueOf(unit));
      if (fraction > 0) {
        part = part.add(BigInteger.valueOf((long) ((double) fraction * ((double) unit / scale))));
      }
      total = total.add(part);
      if (total.compareTo(LIMIT) > 0) {
        throw outOfRange(text);
      }
    }
    if (!negative && total.compareTo(LIMIT) == 0) {
      throw outOfRange(text);
    }
    BigInteger nanos = negative ? total.negate() : total;
    BigInteger[] split = nanos.divideAndRemainder(BILLION);
    return Duration.ofSeconds(split[0].longValueExact(), split[1].longValueExact());
  }

  /**
   * {@code duration} as Go's {@code Duration.String} writes it: the largest unit first with zero
   * parts kept below it ({@code 45m0s}, {@code 1h30m0s}, {@code 1.5s}), units below a second for
   * shorter ones ({@code 1.5ms}), {@code 0s} for zero. {@link #parse} reads it back unchanged.
   *
   * @param duration a duration within Go's range (about 292 years either way)
   * @return the canonical text
   */
  public static String format(Duration duration) {
    long nanos = duration.toNanos();
    if (nanos == 0) {
      return "0s";
    }
    // Go's range is symmetric enough that the magnitude of Long.MIN_VALUE needs unsigned arithmetic.
    String sign = nanos < 0 ? "-" : "";
    BigInteger magnitude = BigInteger.valueOf(nanos).abs();
    if (magnitude.compareTo(BILLION) < 0) {
      long n = magnitude.longValueExact();
      if (n < 1_000) {
        return sign + n + "ns";
      }
      if (n < 1_000_000) {
        return sign + decimal(n, 1_000) + "\u00b5s";
      }
      return sign + decimal(n, 1_000_000) + "ms";
    }
    BigInteger[] secondsAndNanos = magnitude.divideAndRemainder(BILLION);
    long seconds = secondsAndNanos[0].longValueExact();
    long fraction = secondsAndNanos[1].longValueExact();
    StringBuilder text = new StringBuilder(sign);
    if (seconds >= 3600) {
      text.append(seconds / 3600).append('h');
    }
    if (seconds >= 60) {
      text.append(seconds / 60 % 60).append('m');
    }
    text.append(decimal(seconds % 60 * 1_000_000_000L + fraction, 1_000_000_000L)).append('s');
    return text.toString();
  }

  // `value / unit` with its fraction's trailing zeros dropped, as Go's fmtFrac does.
  private static String decimal(long value, long unit) {
    long whole = value / unit;
    long part = value % unit;
    if (part == 0) {
      return Long.toString(whole);
    }
    String digits = Long.toString(unit + part).substring(1).replaceAll("0+$", "");
    return whole + "." + digits;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
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

  private static IllegalArgumentException outOfRange(String text) {
    return new IllegalArgumentException("`" + text + "` is out of range: a duration is at most about 292 years");
  }

  private static IllegalArgumentException invalid(String text) {
    return new IllegalArgumentException("`" + text + "` isn't a duration");
  }
}
