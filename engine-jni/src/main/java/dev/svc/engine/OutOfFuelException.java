package dev.svc.engine;

/**
 * A call used up its fuel (its budget of WebAssembly instructions) and was stopped; the instance is
 * stopped.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class OutOfFuelException extends StoppedException {

  private static final long serialVersionUID = 1L;

  OutOfFuelException(String stderr) {
    super(
        "the call ran out of fuel and was stopped; the instance is stopped" + stderr,
        "raise the call's fuel limit; build a new instance to go on",
        null);
  }
}
