package dev.svc.client;

import java.time.Duration;
import java.util.Optional;

/**
 * One answer of the access server.
 *
 * @param status the HTTP status
 * @param retryAfter the {@code Retry-After} header in its delay-seconds form, when present and valid
 * @param body the body
 */
public record ApiResponse(int status, Optional<Duration> retryAfter, byte[] body) {

  /**
   * The problem to show when this answer isn't the one expected.
   *
   * @return the decoded error body
   */
  public Problem problem() {
    return ApiError.decode(status, body);
  }

  /**
   * Reads a {@code Retry-After} value: a non-negative number of seconds. The HTTP-date form is not
   * used by the server and counts as absent, like any other text.
   *
   * @param header the header's value, if present
   * @return the delay, if the header holds one
   */
  static Optional<Duration> retryAfter(Optional<String> header) {
    return header.map(String::strip).filter(v -> v.matches("[0-9]{1,6}")).map(v -> Duration.ofSeconds(Long.parseLong(v)));
  }
}
