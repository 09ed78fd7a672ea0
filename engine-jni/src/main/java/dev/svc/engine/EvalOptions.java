package dev.svc.engine;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
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
 *     instance's hard deadline for the call is this plus the grace. Empty: no deadline of its own
 *     (the operation deadline of {@link Limits} applies)
 * @param grace how long past {@code timeout} the call's hard deadline falls, in place of {@link
 *     Limits#grace()}; zero kills the call at the timeout itself. Empty: the instance's grace.
 *     Without a timeout it has no effect
 * @param fuel the most WebAssembly instructions the call may run, counted by wasmtime's fuel: a
 *     call that uses it up is stopped with an {@link OutOfFuelException}, and so is its instance.
 *     Needs a module loaded with {@link ModuleConfig#withFuel(boolean) fuel metering}. Empty: no
 *     bound
 * @param trace whether the record has its trace, every candidate the rules produced ({@link
 *     EvalResult#trace()}); without it ({@link #withoutTrace()}) the answer is lighter to write,
 *     cross and read, for a caller that only wants the decision. Leaving it out is the engine's
 *     extension of the module ABI ({@code "trace":false}); with it the record is the reference's
 */
public record EvalOptions(Optional<Duration> timeout, Optional<Duration> grace, OptionalLong fuel, boolean trace) {

  /**
   * Checks the timeout, the grace and the fuel.
   *
   * @param timeout the evaluation's own deadline
   * @param grace how long past the timeout the hard deadline falls, or empty for the instance's
   * @param fuel the call's budget of instructions
   * @param trace whether the record has its trace
   * @throws IllegalArgumentException if the timeout or the fuel is zero or negative, or the grace is
   *     negative
   */
  public EvalOptions {
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(grace, "grace");
    Objects.requireNonNull(fuel, "fuel");
    timeout.ifPresent(
        t -> {
          if (t.isNegative() || t.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + t);
          }
        });
    grace.ifPresent(
        g -> {
          if (g.isNegative()) {
            throw new IllegalArgumentException("grace must not be negative, got " + g);
          }
        });
    if (fuel.isPresent() && fuel.getAsLong() <= 0) {
      throw new IllegalArgumentException("fuel must be positive, got " + fuel.getAsLong());
    }
  }

  /**
   * No deadline of its own, no fuel bound, the trace in the record.
   *
   * @return the defaults
   */
  public static EvalOptions defaults() {
    return new EvalOptions(Optional.empty(), Optional.empty(), OptionalLong.empty(), true);
  }

  /**
   * A copy with its own deadline.
   *
   * @param timeout how long the evaluation may run; positive
   * @return the new options
   * @throws IllegalArgumentException if {@code timeout} is zero or negative
   */
  public EvalOptions withTimeout(Duration timeout) {
    return new EvalOptions(Optional.of(Objects.requireNonNull(timeout, "timeout")), grace, fuel, trace);
  }

  /**
   * A copy whose hard deadline falls {@code grace} past its timeout, in place of the instance's
   * {@link Limits#grace()}.
   *
   * @param grace zero or more; zero kills the call at its timeout, before the engine's own check
   *     may answer {@code canceled}
   * @return the new options
   * @throws IllegalArgumentException if {@code grace} is negative
   */
  public EvalOptions withGrace(Duration grace) {
    return new EvalOptions(timeout, Optional.of(Objects.requireNonNull(grace, "grace")), fuel, trace);
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
    return new EvalOptions(timeout, grace, OptionalLong.of(fuel), trace);
  }

  /**
   * A copy whose record leaves the trace out: {@link EvalResult#trace()} is empty and {@link
   * Policy#evalJson}'s record has no {@code trace} member; everything else is as with it. For
   * callers that read only what was decided, it saves writing, crossing and reading every
   * candidate.
   *
   * @return the new options
   */
  public EvalOptions withoutTrace() {
    return new EvalOptions(timeout, grace, fuel, false);
  }

  /**
   * The timeout in whole milliseconds, rounded up (so at least 1); 0 for none. A timeout of more
   * milliseconds than a long holds is sent as the most it holds: never, in practice.
   */
  long timeoutMillis() {
    return timeout.map(EvalOptions::ceilMillis).orElse(0L);
  }

  /**
   * The call's hard deadline: the timeout plus the grace ({@code instanceGrace} unless the options
   * give their own), or empty without a timeout. Saturates instead of overflowing.
   */
  Optional<Duration> hardDeadline(Duration instanceGrace) {
    return timeout.map(t -> saturatedPlus(t, grace.orElse(instanceGrace)));
  }

  private static long ceilMillis(Duration t) {
    Duration whole = t.truncatedTo(ChronoUnit.MILLIS);
    try {
      return Math.addExact(whole.toMillis(), whole.equals(t) ? 0 : 1);
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  private static Duration saturatedPlus(Duration a, Duration b) {
    try {
      return a.plus(b);
    } catch (ArithmeticException e) {
      return Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
    }
  }
}
