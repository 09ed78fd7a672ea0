package dev.svc.engine;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How one evaluation runs.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param timeout the engine's own deadline: past it the evaluation ends {@code canceled} with the
 *     kind's fallback and the instance keeps working. Sent in whole milliseconds, rounded up. The
 *     instance's hard deadline for the call is this plus {@link Limits#grace()}. Empty: no deadline
 *     of its own (the operation deadline of {@link Limits} applies)
 * @param fuel the most WebAssembly instructions the call may run, counted by wasmtime's fuel: a
 *     call that uses it up is stopped with an {@link OutOfFuelException}, and so is its instance.
 *     Needs a module loaded with {@link ModuleConfig#withFuel(boolean) fuel metering}. Empty: no
 *     bound
 */
public record EvalOptions(Optional<Duration> timeout, OptionalLong fuel) {

  /**
   * Checks the timeout and the fuel.
   *
   * @param timeout the evaluation's own deadline
   * @param fuel the call's budget of instructions
   * @throws IllegalArgumentException if the timeout or the fuel is zero or negative
   */
  public EvalOptions {
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(fuel, "fuel");
    timeout.ifPresent(
        t -> {
          if (t.isNegative() || t.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + t);
          }
        });
    if (fuel.isPresent() && fuel.getAsLong() <= 0) {
      throw new IllegalArgumentException("fuel must be positive, got " + fuel.getAsLong());
    }
  }

  /**
   * No deadline of its own, no fuel bound.
   *
   * @return the defaults
   */
  public static EvalOptions defaults() {
    return new EvalOptions(Optional.empty(), OptionalLong.empty());
  }

  /**
   * A copy with its own deadline.
   *
   * @param timeout how long the evaluation may run; positive
   * @return the new options
   */
  public EvalOptions withTimeout(Duration timeout) {
    return new EvalOptions(Optional.of(timeout), fuel);
  }

  /**
   * A copy bounded by {@code fuel} instructions; the module must meter fuel
   * ({@link ModuleConfig#withFuel(boolean)}).
   *
   * @param fuel how many WebAssembly instructions the call may run; positive
   * @return the new options
   * @throws IllegalArgumentException if {@code fuel} is zero or negative
   */
  public EvalOptions withFuel(long fuel) {
    return new EvalOptions(timeout, OptionalLong.of(fuel));
  }

  /** The timeout in whole milliseconds, rounded up; 0 for none. */
  long timeoutMillis() {
    return timeout
        .map(t -> t.toMillis() + (t.minusMillis(t.toMillis()).isZero() ? 0 : 1))
        .orElse(0L);
  }
}
