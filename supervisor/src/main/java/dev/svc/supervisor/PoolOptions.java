package dev.svc.supervisor;

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
 */
public record PoolOptions(int size, Limits limits, Optional<Duration> acquireTimeout, PoolListener listener) {

  /**
   * Checks the options.
   *
   * @param size how many engine instances the pool keeps
   * @param limits the bounds of every instance
   * @param acquireTimeout how long a call waits for a free instance; empty for as long as it takes
   * @param listener what the pool reports to
   * @throws IllegalArgumentException if {@code size} is below 1 or {@code acquireTimeout} is negative
   */
  public PoolOptions {
    if (size < 1) {
      throw new IllegalArgumentException(
          "a pool needs at least one instance, got a size of " + size + ": set the size to 1 or more");
    }
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(acquireTimeout, "acquireTimeout");
    Objects.requireNonNull(listener, "listener");
    acquireTimeout.ifPresent(
        t -> {
          if (t.isNegative()) {
            throw new IllegalArgumentException("acquireTimeout must not be negative, got " + t);
          }
        });
  }

  /**
   * The defaults: one instance per available processor, default {@link Limits}, callers wait as long
   * as it takes, no listener.
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
     * The options.
     *
     * @return the options set so far
     * @throws IllegalArgumentException if the size is below 1 or the acquire timeout negative
     */
    public PoolOptions build() {
      return new PoolOptions(size, limits, acquireTimeout, listener);
    }
  }
}
