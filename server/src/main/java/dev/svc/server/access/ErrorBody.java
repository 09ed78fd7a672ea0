package dev.svc.server.access;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * The error body of the sign-in API (access-server spec §4.1): the message, what to do (omitted when
 * nothing), and the cause underneath in the same shape (omitted when none).
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param message the primary error text
 * @param advice what the user can do
 * @param cause the underlying error, or null
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonPropertyOrder({"message", "advice", "cause"})
public record ErrorBody(
    @JsonProperty("message") String message,
    @JsonProperty("advice") List<String> advice,
    @JsonProperty("cause") ErrorBody cause) {

  // A cause chain is cut after this many links: enough for any real chain, bounded for a cyclic one.
  private static final int MAX_CAUSES = 8;

  /**
   * Copies the advice.
   *
   * @param message the text
   * @param advice what to do
   * @param cause the cause, or null
   */
  public ErrorBody {
    advice = List.copyOf(advice);
  }

  /**
   * The body of {@code error}, its causes as nested bodies.
   *
   * @param error the error answered
   * @return the body
   */
  public static ErrorBody of(AccessError error) {
    return new ErrorBody(error.getMessage(), error.advice(), causes(error.getCause(), MAX_CAUSES));
  }

  private static ErrorBody causes(Throwable cause, int room) {
    if (cause == null || room == 0) {
      return null;
    }
    String message = AccessError.describe(cause);
    Throwable next = cause.getCause();
    // Clients wrap an error in another saying the same (fabric8 adds the caller's stack so): one link.
    while (next != null && next != cause && AccessError.describe(next).equals(message)) {
      next = next.getCause();
    }
    return new ErrorBody(message, List.of(), causes(next, room - 1));
  }
}
