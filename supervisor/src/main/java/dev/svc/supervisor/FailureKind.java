package dev.svc.supervisor;

import dev.svc.engine.BusyException;
import dev.svc.engine.EngineException;
import dev.svc.engine.MemoryLimitException;
import dev.svc.engine.NoPolicyException;
import dev.svc.engine.OutOfFuelException;
import dev.svc.engine.StoppedException;
import dev.svc.engine.TimeoutException;

/**
 * Why a call on a pool's policy failed, as a {@link PoolListener} hears it: one value per kind of
 * error the caller got.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public enum FailureKind {
  /** The call ran past its hard deadline and was killed ({@link TimeoutException}); its instance stopped. */
  TIMEOUT,
  /** The call used up its fuel ({@link OutOfFuelException}); its instance stopped. */
  OUT_OF_FUEL,
  /**
   * The call needed more memory than the instance may have ({@link MemoryLimitException}); its
   * instance stopped.
   */
  OUT_OF_MEMORY,
  /** The instance trapped or exited otherwise ({@link StoppedException}). */
  STOPPED,
  /** The engine refused the request ({@link EngineException}), for example an input that doesn't fit. */
  REFUSED,
  /** Nothing is installed under the name ({@link NoPolicyException}). */
  NO_POLICY,
  /** Every instance stayed busy past the acquire timeout ({@link BusyException}). */
  BUSY,
  /** An exception from outside the engine: the caller's function, or the input's serialization. */
  OTHER;

  /**
   * The kind of {@code failure}.
   *
   * @param failure what a pool call threw
   * @return its kind; {@link #OTHER} for anything that isn't an engine error
   */
  public static FailureKind of(Throwable failure) {
    if (failure instanceof TimeoutException) {
      return TIMEOUT;
    } else if (failure instanceof OutOfFuelException) {
      return OUT_OF_FUEL;
    } else if (failure instanceof MemoryLimitException) {
      return OUT_OF_MEMORY;
    } else if (failure instanceof StoppedException) {
      return STOPPED;
    } else if (failure instanceof EngineException) {
      return REFUSED;
    } else if (failure instanceof NoPolicyException) {
      return NO_POLICY;
    } else if (failure instanceof BusyException) {
      return BUSY;
    }
    return OTHER;
  }
}
