package dev.svc.client;

import java.util.List;

/**
 * What a failed command says on stderr (access-server spec §11.8): the message, what the user can do,
 * and the root causes, inner first.
 *
 * @param message what failed, one sentence
 * @param advice what to do, each an instruction; may be empty
 * @param causes the messages of the underlying errors, outermost first; may be empty
 */
public record Problem(String message, List<String> advice, List<String> causes) {

  /**
   * Copies the lists.
   *
   * @param message what failed
   * @param advice what to do
   * @param causes the underlying errors' messages
   */
  public Problem {
    advice = List.copyOf(advice);
    causes = List.copyOf(causes);
  }

  /**
   * A problem with advice and no causes.
   *
   * @param message what failed
   * @param advice what to do
   * @return the problem
   */
  public static Problem of(String message, String... advice) {
    return new Problem(message, List.of(advice), List.of());
  }
}
