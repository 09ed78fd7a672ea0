package dev.svc.engine;

import java.util.OptionalLong;

/**
 * Bounds that apply to every call on one {@link Engine} instance.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param maxMemory the most linear memory, in bytes, the instance's module may grow to; empty means
 *     the wasm32 maximum of 4 GiB. A refused growth makes the module fail on its own terms, which
 *     stops the instance with the module's reason quoted. The engine needs a few MiB just to start.
 */
public record Limits(OptionalLong maxMemory) {

  public Limits {
    if (maxMemory.isPresent() && maxMemory.getAsLong() <= 0) {
      throw new IllegalArgumentException(
          "maxMemory must be positive, got " + maxMemory.getAsLong() + " bytes");
    }
  }

  /** No memory cap below the wasm32 maximum. */
  public static Limits defaults() {
    return new Limits(OptionalLong.empty());
  }

  /** A copy whose instances may grow their memory to at most {@code bytes}. */
  public Limits withMaxMemory(long bytes) {
    return new Limits(OptionalLong.of(bytes));
  }
}
