package dev.svc.engine;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How one evaluation runs.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param timeout the engine's own deadline: past it the evaluation ends {@code canceled} with the
 *     kind's fallback and the instance keeps working. Sent in whole milliseconds, rounded up. The
 *     instance's hard deadline for the call is this plus {@link Limits#grace()}. Empty: no deadline
 *     of its own (the operation deadline of {@link Limits} applies)
 */
public record EvalOptions(Optional<Duration> timeout) {

  /**
   * Checks the timeout.
   *
   * @param timeout the evaluation's own deadline
   * @throws IllegalArgumentException if the timeout is zero or negative
   */
  public EvalOptions {
    Objects.requireNonNull(timeout, "timeout");
    timeout.ifPresent(
        t -> {
          if (t.isNegative() || t.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + t);
          }
        });
  }

  /**
   * No deadline of its own.
   *
   * @return the defaults
   */
  public static EvalOptions defaults() {
    return new EvalOptions(Optional.empty());
  }

  /**
   * A copy with its own deadline.
   *
   * @param timeout how long the evaluation may run; positive
   * @return the new options
   */
  public EvalOptions withTimeout(Duration timeout) {
    return new EvalOptions(Optional.of(timeout));
  }

  /** The timeout in whole milliseconds, rounded up; 0 for none. */
  long timeoutMillis() {
    return timeout
        .map(t -> t.toMillis() + (t.minusMillis(t.toMillis()).isZero() ? 0 : 1))
        .orElse(0L);
  }
}
