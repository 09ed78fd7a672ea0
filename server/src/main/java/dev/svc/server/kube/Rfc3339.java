package dev.svc.server.kube;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * The times of sign-ins and API answers (access-server spec §4.1): written as RFC 3339 in UTC with
 * second precision ({@code 2025-03-04T09:15:00Z}); read with any offset, since objects may have been
 * written by others.
 *
 * <p><b>Thread safety:</b> stateless and thread-safe.
 */
public final class Rfc3339 {

  private Rfc3339() {}

  /**
   * {@code time} to the second, in UTC.
   *
   * @param time an instant
   * @return such as {@code 2025-03-04T09:15:00Z}
   */
  public static String format(Instant time) {
    return time.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /**
   * The instant {@code text} writes.
   *
   * @param text an RFC 3339 time with any offset, or anything else
   * @return the instant; empty when {@code text} isn't an RFC 3339 time
   */
  public static Optional<Instant> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(OffsetDateTime.parse(text).toInstant());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
