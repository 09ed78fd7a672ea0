package dev.svc.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * A call ran past its hard deadline and was killed; the instance is stopped. Not to be confused
 * with {@link java.util.concurrent.TimeoutException}.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class TimeoutException extends StoppedException {

  private static final long serialVersionUID = 1L;

  /** The hard deadline the call ran past. */
  private final Duration deadline;

  TimeoutException(Duration deadline, String stderr) {
    super(
        "the call ran past its hard deadline of " + deadline.toMillis() + " ms"
            + " and was killed; the instance is stopped" + stderr,
        "raise the deadline, or look for a policy loop over a large input or a host function that"
            + " blocks; build a new instance to go on",
        null);
    this.deadline = Objects.requireNonNull(deadline, "deadline");
  }

  /**
   * The hard deadline the call ran past.
   *
   * @return the deadline
   */
  public Duration deadline() {
    return deadline;
  }
}
