package dev.svc.engine;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Bounds that apply to every call on one {@link Engine} instance.
 *
 * <p>A call that runs past its hard deadline is killed at its next WebAssembly instruction with a
 * {@link TimeoutException}, and the instance is stopped. Operations run under {@code opDeadline},
 * or the deadline {@code opDeadlines} gives their kind; an evaluation with its own timeout runs under
 * that timeout plus {@code grace}, so the engine's own cooperative timeout gets to answer first.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param grace how long past an evaluation's own timeout its hard deadline falls
 * @param opDeadline the hard deadline of every call without a timeout of its own; empty means none
 * @param maxMemory the most linear memory, in bytes, the instance's module may grow to; empty means
 *     the wasm32 maximum of 4 GiB. A refused growth makes the module fail on its own terms, which
 *     stops the instance with the module's reason quoted. The engine needs a few MiB just to start.
 * @param opDeadlines the hard deadlines of some kinds of operation in place of {@code opDeadline}, by
 *     the module's op name ({@code compile}, {@code check}, {@code format}, {@code explain},
 *     {@code test}, {@code eval} for an evaluation without a timeout of its own)
 */
public record Limits(
    Duration grace, Optional<Duration> opDeadline, OptionalLong maxMemory, Map<String, Duration> opDeadlines) {

  /** The default {@code grace}: 500 ms. */
  public static final Duration DEFAULT_GRACE = Duration.ofMillis(500);
  /** The default {@code opDeadline}: 60 s. */
  public static final Duration DEFAULT_OP_DEADLINE = Duration.ofSeconds(60);

  /**
   * Checks the bounds.
   *
   * @param grace how long past an evaluation's own timeout its hard deadline falls; zero or more
   * @param opDeadline the hard deadline of calls without a timeout of their own; empty means none
   * @param maxMemory the most linear memory in bytes an instance may grow to; empty means 4 GiB
   * @param opDeadlines the deadlines of some kinds of operation, by op name
   * @throws IllegalArgumentException if {@code grace} is negative, a deadline is zero or negative, or
   *     {@code maxMemory} is zero or negative
   */
  public Limits {
    Objects.requireNonNull(grace, "grace");
    Objects.requireNonNull(opDeadline, "opDeadline");
    Objects.requireNonNull(maxMemory, "maxMemory");
    if (grace.isNegative()) {
      throw new IllegalArgumentException("grace must not be negative, got " + grace);
    }
    opDeadline.ifPresent(
        d -> {
          if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("opDeadline must be positive, got " + d);
          }
        });
    if (maxMemory.isPresent() && maxMemory.getAsLong() <= 0) {
      throw new IllegalArgumentException(
          "maxMemory must be positive, got " + maxMemory.getAsLong() + " bytes");
    }
    opDeadlines = Map.copyOf(opDeadlines);
    opDeadlines.forEach((op, d) -> {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("the deadline of " + op + " must be positive, got " + d);
      }
    });
  }

  /**
   * Bounds with one deadline for every kind of operation.
   *
   * @param grace how long past an evaluation's own timeout its hard deadline falls; zero or more
   * @param opDeadline the hard deadline of calls without a timeout of their own; empty means none
   * @param maxMemory the most linear memory in bytes an instance may grow to; empty means 4 GiB
   * @throws IllegalArgumentException if {@code grace} is negative, {@code opDeadline} is zero or
   *     negative, or {@code maxMemory} is zero or negative
   */
  public Limits(Duration grace, Optional<Duration> opDeadline, OptionalLong maxMemory) {
    this(grace, opDeadline, maxMemory, Map.of());
  }

  /**
   * The hard deadline of an operation of kind {@code op} without a timeout of its own.
   *
   * @param op the module's op name, such as {@code compile}
   * @return the deadline {@link #opDeadlines()} gives it, else {@link #opDeadline()}
   */
  public Optional<Duration> opDeadline(String op) {
    Duration own = opDeadlines.get(op);
    return own != null ? Optional.of(own) : opDeadline;
  }

  /**
   * A copy whose operations of kind {@code op} are killed after {@code deadline}, whatever
   * {@link #opDeadline()} says.
   *
   * @param op the module's op name, such as {@code compile} or {@code format}
   * @param deadline the hard deadline of each such call; positive
   * @return the new limits
   * @throws IllegalArgumentException if {@code deadline} is zero or negative
   */
  public Limits withOpDeadline(String op, Duration deadline) {
    Map<String, Duration> deadlines = new HashMap<>(opDeadlines);
    deadlines.put(Objects.requireNonNull(op, "op"), Objects.requireNonNull(deadline, "deadline"));
    return new Limits(grace, opDeadline, maxMemory, deadlines);
  }

  /**
   * The default limits: 500 ms grace, a 60 s deadline for operations, no memory cap below the wasm32
   * maximum.
   *
   * @return the defaults
   */
  public static Limits defaults() {
    return new Limits(DEFAULT_GRACE, Optional.of(DEFAULT_OP_DEADLINE), OptionalLong.empty());
  }

  /**
   * A copy with another grace after evaluation timeouts.
   *
   * @param grace how long past an evaluation's own timeout its hard deadline falls; zero or more
   * @return the new limits
   * @throws IllegalArgumentException if {@code grace} is negative
   */
  public Limits withGrace(Duration grace) {
    return new Limits(grace, opDeadline, maxMemory, opDeadlines);
  }

  /**
   * A copy whose calls without a timeout of their own are killed after {@code deadline}.
   *
   * @param deadline the hard deadline of each such call; positive
   * @return the new limits
   * @throws IllegalArgumentException if {@code deadline} is zero or negative
   */
  public Limits withOpDeadline(Duration deadline) {
    return new Limits(grace, Optional.of(Objects.requireNonNull(deadline, "deadline")), maxMemory, opDeadlines);
  }

  /**
   * A copy whose calls without a timeout of their own may run for ever.
   *
   * @return the new limits
   */
  public Limits withoutOpDeadline() {
    return new Limits(grace, Optional.empty(), maxMemory, opDeadlines);
  }

  /**
   * A copy whose instances may grow their memory to at most {@code bytes}.
   *
   * @param bytes the memory cap in bytes; positive (the engine needs a few MiB to start)
   * @return the new limits
   * @throws IllegalArgumentException if {@code bytes} is zero or negative
   */
  public Limits withMaxMemory(long bytes) {
    return new Limits(grace, opDeadline, OptionalLong.of(bytes), opDeadlines);
  }
}
