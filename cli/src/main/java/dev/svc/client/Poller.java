package dev.svc.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

/**
 * Asks the server again until it gives the answer wanted (access-server spec §11.7): the first
 * attempt at once, then waits of {@code Retry-After} when the answer has one (deviation D21), else
 * of a delay that starts at {@link Schedule#firstDelay()} and doubles; at most
 * {@link Schedule#maxAttempts()} attempts, all within {@link Schedule#deadline()}. Some statuses end
 * the polling at once: there is no chance they change.
 *
 * <p><b>Thread safety:</b> immutable; each {@link #poll} call is independent.
 */
public final class Poller {

  /** The message of a poll that ran out of time (§11.7). */
  public static final String TIMED_OUT = "Operation timed out!";

  /**
   * How often and how long to ask.
   *
   * @param firstDelay the wait after the first attempt when the answer names none; doubles after each
   * @param maxAttempts the most attempts
   * @param deadline the longest the whole poll may take
   */
  public record Schedule(Duration firstDelay, int maxAttempts, Duration deadline) {

    /** The kubeconfig's schedule of §11.7: 200 ms doubling, 10 attempts, 30 s. */
    public static final Schedule KUBECONFIG = new Schedule(Duration.ofMillis(200), 10, Duration.ofSeconds(30));
  }

  /** Hears about each wait, to show progress. */
  @FunctionalInterface
  public interface Listener {

    /** A listener that shows nothing. */
    Listener SILENT = (attempt, wait) -> { };

    /**
     * The poll is about to wait before its next attempt.
     *
     * @param attempt how many attempts were made
     * @param wait how long it waits
     */
    void waiting(int attempt, Duration wait);
  }

  /**
   * The answer wanted, and how long it took to come.
   *
   * @param response the answer
   * @param attempts how many attempts were made
   * @param elapsed the time from the first attempt to the answer
   */
  public record Outcome(ApiResponse response, int attempts, Duration elapsed) {}

  private final Clock clock;
  private final Pause pause;
  private final Schedule schedule;

  /**
   * A poller that reads the time from {@code clock} and waits through {@code pause}.
   *
   * @param clock the clock
   * @param pause how to wait
   * @param schedule how often and how long to ask
   */
  public Poller(Clock clock, Pause pause, Schedule schedule) {
    this.clock = clock;
    this.pause = pause;
    this.schedule = schedule;
  }

  /**
   * Asks until {@code wanted} holds for the answer's status.
   *
   * @param request one attempt
   * @param wanted the statuses that end the poll with success
   * @param hopeless the statuses that end it with the answer's error at once
   * @param listener hears about each wait
   * @return the wanted answer
   * @throws ClientException for a hopeless answer, after the last attempt, or when time runs out
   */
  public Outcome poll(Supplier<ApiResponse> request, IntPredicate wanted, IntPredicate hopeless, Listener listener) {
    Instant start = clock.instant();
    Instant deadline = start.plus(schedule.deadline());
    Duration delay = schedule.firstDelay();
    for (int attempt = 1; ; attempt++) {
      ApiResponse response = request.get();
      if (wanted.test(response.status())) {
        return new Outcome(response, attempt, Duration.between(start, clock.instant()));
      }
      if (hopeless.test(response.status())) {
        throw new ClientException(response.problem());
      }
      if (attempt == schedule.maxAttempts()) {
        throw new ClientException(Problem.of(
            "the server still answered " + response.status() + " after " + attempt + " attempts",
            "check the session with `svc get login`, then run the command again"));
      }
      Duration wait = response.retryAfter().orElse(delay);
      if (clock.instant().plus(wait).isAfter(deadline)) {
        throw new ClientException(Problem.of(TIMED_OUT,
            "the server didn't answer " + schedule.deadline().toSeconds() + " s after the first attempt",
            "check the session with `svc get login`, then run the command again"));
      }
      listener.waiting(attempt, wait);
      try {
        pause.pause(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ClientException(Problem.of("waiting for the server was interrupted"));
      }
      delay = delay.multipliedBy(2);
    }
  }
}
