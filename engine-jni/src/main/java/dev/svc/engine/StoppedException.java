package dev.svc.engine;

/**
 * The engine instance stopped: its module trapped, exited, ran past a hard deadline, out of fuel or out of
 * memory.
 * The instance can't be used again; every later call on it throws this same kind of error without
 * entering the module. Build a new instance (a pool does that by itself).
 *
 * <p>The message says why and quotes the module's stderr (its first and last lines), which is where
 * the engine writes the reason for a fatal error.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public sealed class StoppedException extends SvcException
    permits TimeoutException, OutOfFuelException, MemoryLimitException {

  private static final long serialVersionUID = 1L;

  static final String HELP_REBUILD = "this instance can't be used again: build a new one with Engine.create";

  StoppedException(String message, String help, Throwable cause) {
    super(message, help, cause);
  }

  @Override
  public final boolean isStopped() {
    return true;
  }
}
