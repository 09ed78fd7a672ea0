package dev.svc.engine;

import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * A call needed more linear memory than the instance may have, {@link Limits#maxMemory()} (4 GiB, all
 * a 32-bit module can address, without one): the module's allocator failed, and the instance is
 * stopped. The request or the policy was too large for the cap; a smaller one works on a new
 * instance, as does a larger cap.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class MemoryLimitException extends StoppedException {

  private static final long serialVersionUID = 1L;

  /** What the module writes to stderr when an allocation fails: Rust's standard message. */
  static final Pattern ALLOCATION_FAILED = Pattern.compile("memory allocation of \\d+ bytes failed");

  private final long maxMemory;

  MemoryLimitException(OptionalLong maxMemory, String stderr, Throwable cause) {
    super(
        "the call needed more memory than the instance may have (" + mebibytes(maxMemory) + ")"
            + " and was stopped; the instance is stopped" + stderr,
        "send a smaller request or policy, or raise Limits.maxMemory; build a new instance to go on",
        cause);
    this.maxMemory = maxMemory.orElse(-1);
  }

  /**
   * The cap the call ran into.
   *
   * @return {@link Limits#maxMemory()} of the instance; empty when it had none (4 GiB)
   */
  public OptionalLong maxMemory() {
    return maxMemory < 0 ? OptionalLong.empty() : OptionalLong.of(maxMemory);
  }

  private static String mebibytes(OptionalLong maxMemory) {
    return maxMemory.isPresent() ? (maxMemory.getAsLong() >> 20) + " MiB" : "4 GiB";
  }
}
