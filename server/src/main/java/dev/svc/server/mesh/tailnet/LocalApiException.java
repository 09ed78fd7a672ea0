package dev.svc.server.mesh.tailnet;

import java.time.Duration;
import java.util.Optional;

/**
 * A call to tailscaled's local API that failed: the daemon answered an error status, answered
 * something this client can't read, or couldn't be reached in time. The message names the call and
 * carries the daemon's own text.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class LocalApiException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** {@link #status()} of a failure without an HTTP answer: no socket, a timeout, a broken connection. */
  public static final int NO_ANSWER = 0;

  private final int status;
  private final transient Optional<Duration> retryAfter;

  /**
   * A failed call.
   *
   * @param status the HTTP status the daemon answered, or {@link #NO_ANSWER}
   * @param message what failed, with the daemon's text
   * @param retryAfter how long the daemon asked to wait ({@code Retry-After}), when it did
   * @param cause the underlying failure, or null
   */
  public LocalApiException(int status, String message, Optional<Duration> retryAfter, Throwable cause) {
    super(message, cause);
    this.status = status;
    this.retryAfter = retryAfter;
  }

  /**
   * The HTTP status of the daemon's answer.
   *
   * @return the status, or {@link #NO_ANSWER} when there was no answer
   */
  public int status() {
    return status;
  }

  /**
   * How long the daemon asked the caller to wait before the next try (a 429's {@code Retry-After}).
   *
   * @return the wait, when the daemon gave one
   */
  public Optional<Duration> retryAfter() {
    return retryAfter;
  }
}
