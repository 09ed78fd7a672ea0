package dev.svc.supervisor;

import dev.svc.engine.Isolation;
import dev.svc.engine.Limits;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link Pool} is set up. Build it with {@link #builder()}:
 *
 * <pre>{@code
 * PoolOptions options = PoolOptions.builder().size(4).acquireTimeout(Duration.ofSeconds(2)).build();
 * }</pre>
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param size how many engine instances the pool keeps; at least 1
 * @param limits the bounds of every instance: hard deadlines, memory cap
 * @param acquireTimeout how long a call waits for a free instance before it fails with a
 *     {@link dev.svc.engine.BusyException}; empty: it waits as long as it takes
 * @param listener what the pool reports to
 * @param operationInstances the most instances calls of {@link Lane#OPERATIONS} hold at once (the
 *     threads of that lane); from 1 to {@code size}. The rest are left to evaluations
 * @param isolation where the instances run: in this JVM, or each in an engine host process of its
 *     own, where a native crash costs that instance only (the pool rebuilds it like any stopped one)
 */
public record PoolOptions(
    int size,
    Limits limits,
    Optional<Duration> acquireTimeout,
    PoolListener listener,
    int operationInstances,
    Isolation isolation) {

  /**
   * Checks the options.
   *
   * @param size how many engine instances the pool keeps
   * @param limits the bounds of every instance
   * @param acquireTimeout how long a call waits for a free instance; empty for as long as it takes
   * @param listener what the pool reports to
   * @param operationInstances the most instances slow calls hold at once
   * @param isolation where the instances run
   * @throws IllegalArgumentException if {@code size} is below 1, {@code acquireTimeout} is negative, or
   *     {@code operationInstances} isn't from 1 to {@code size}
   */
  public PoolOptions {
    if (size < 1) {
      throw new IllegalArgumentException(
          "a pool needs at least one instance, got a size of " + size + ": set the size to 1 or more");
    }
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(acquireTimeout, "acquireTimeout");
    Objects.requireNonNull(listener, "listener");
    Objects.requireNonNull(isolation, "isolation");
    acquireTimeout.ifPresent(
        t -> {
          if (t.isNegative()) {
            throw new IllegalArgumentException("acquireTimeout must not be negative, got " + t);
          }
        });
    if (operationInstances < 1 || operationInstances > size) {
      throw new IllegalArgumentException("operationInstances must be from 1 to the size " + size + ", got "
          + operationInstances + ": give slow operations at least one instance, and at most all");
    }
  }

  /**
   * The default of {@link #operationInstances()}: half of {@code size}, at least one. A pool of two
   * keeps one instance for evaluations whatever runs on the other.
   *
   * @param size the pool's size
   * @return the instances slow calls may hold at once
   */
  public static int defaultOperationInstances(int size) {
    return Math.max(1, size / 2);
  }

  /**
   * The defaults: one instance per available processor, default {@link Limits}, callers wait as long
   * as it takes, no listener, half the instances at most for slow operations, instances in this JVM.
   *
   * @return the defaults
   */
  public static PoolOptions defaults() {
    return builder().build();
  }

  /**
   * A builder starting from the {@link #defaults()}.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Builds {@link PoolOptions}; each setter replaces one default.
   *
   * <p><b>Thread safety:</b> not thread-safe.
   */
  public static final class Builder {

    private int size = Runtime.getRuntime().availableProcessors();
    private Limits limits = Limits.defaults();
    private Optional<Duration> acquireTimeout = Optional.empty();
    private PoolListener listener = PoolListener.none();
    private int operationInstances; // 0: the default for the size
    private Isolation isolation = Isolation.IN_PROCESS;

    private Builder() {}

    /**
     * How many instances the pool keeps (default: the available processors).
     *
     * @param size at least 1
     * @return this builder
     */
    public Builder size(int size) {
      this.size = size;
      return this;
    }

    /**
     * The bounds of every instance (default: {@link Limits#defaults()}).
     *
     * @param limits the limits
     * @return this builder
     */
    public Builder limits(Limits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /**
     * How long a call waits for a free instance before failing with a
     * {@link dev.svc.engine.BusyException} (default: as long as it takes).
     *
     * @param timeout zero or more; zero takes an instance only if one is free at once
     * @return this builder
     */
    public Builder acquireTimeout(Duration timeout) {
      this.acquireTimeout = Optional.of(Objects.requireNonNull(timeout, "timeout"));
      return this;
    }

    /**
     * What the pool reports to (default: {@link PoolListener#none()}).
     *
     * @param listener the listener, for example a
     *     {@link dev.svc.supervisor.micrometer.MicrometerPoolListener}
     * @return this builder
     */
    public Builder listener(PoolListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * The most instances calls of {@link Lane#OPERATIONS} hold at once (default:
     * {@link #defaultOperationInstances}).
     *
     * @param instances from 1 to the size
     * @return this builder
     */
    public Builder operationInstances(int instances) {
      this.operationInstances = instances;
      return this;
    }

    /**
     * Where the instances run (default: {@link Isolation#IN_PROCESS}).
     *
     * @param isolation in this JVM, or each in an engine host process
     * @return this builder
     */
    public Builder isolation(Isolation isolation) {
      this.isolation = Objects.requireNonNull(isolation, "isolation");
      return this;
    }

    /**
     * The options.
     *
     * @return the options set so far
     * @throws IllegalArgumentException if the size is below 1, the acquire timeout negative, or the
     *     operation instances out of range
     */
    public PoolOptions build() {
      return new PoolOptions(size, limits, acquireTimeout, listener,
          operationInstances == 0 ? defaultOperationInstances(size) : operationInstances, isolation);
    }
  }
}
