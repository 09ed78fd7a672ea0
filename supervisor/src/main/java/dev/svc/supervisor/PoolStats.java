package dev.svc.supervisor;

/**
 * A pool's state at one moment.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param size how many instances the pool keeps: idle, busy and rebuilding together
 * @param idle instances waiting for a call
 * @param installed how many policies are installed
 * @param replaced how many instances stopped and were (or are being) replaced since the pool started
 * @param rebuilding instances being rebuilt in the background, out of service meanwhile
 */
public record PoolStats(int size, int idle, int installed, long replaced, int rebuilding) {

  /**
   * Instances running a call now.
   *
   * @return {@code size - idle - rebuilding}
   */
  public int busy() {
    return size - idle - rebuilding;
  }
}
