package dev.svc.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * Every instance of a pool stayed busy for as long as a caller was willing to wait for one. The pool
 * and its instances work on; nothing ran.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class BusyException extends SvcException {

  private static final long serialVersionUID = 1L;

  /** How long the caller waited: the pool's acquire timeout. */
  private final Duration waited;

  /**
   * The error for a caller that waited {@code waited} and got no instance.
   *
   * @param waited how long the caller waited: the pool's acquire timeout
   */
  public BusyException(Duration waited) {
    super(
        "every instance of the pool stayed busy for "
            + Objects.requireNonNull(waited, "waited").toMillis() + " ms",
        "the pool is saturated: raise its size or shed load",
        null);
    this.waited = waited;
  }

  /**
   * How long the caller waited.
   *
   * @return the pool's acquire timeout
   */
  public Duration waited() {
    return waited;
  }

  @Override
  public boolean isStopped() {
    return false;
  }
}
