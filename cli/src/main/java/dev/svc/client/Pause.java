package dev.svc.client;

import java.time.Duration;

/**
 * Waits between attempts. The process waits for real; tests pass one that moves a fake clock, so
 * polling is tested without sleeping.
 */
@FunctionalInterface
public interface Pause {

  /** A pause that sleeps the calling thread. */
  Pause SLEEP = duration -> Thread.sleep(duration.toMillis());

  /**
   * Waits for {@code duration}.
   *
   * @param duration how long to wait
   * @throws InterruptedException if the thread is interrupted while waiting
   */
  void pause(Duration duration) throws InterruptedException;
}
