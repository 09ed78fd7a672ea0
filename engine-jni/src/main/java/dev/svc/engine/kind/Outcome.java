package dev.svc.engine.kind;

import java.util.Objects;

/**
 * One reason of one decision, {@code notify.unrouted} in a kind file: what a kind ranks, picks as
 * its default or conflict outcome, or marks exclusive. Get one from {@link
 * Decision#reason(String)}, which checks the reason at once; an outcome made from names here is
 * checked when the kind is built.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param decision the decision's name
 * @param reason the reason's name
 */
public record Outcome(String decision, String reason) implements OutcomeRef {

  /**
   * Checks that both names are given.
   *
   * @param decision the decision's name
   * @param reason the reason's name
   */
  public Outcome {
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(reason, "reason");
  }

  /** {@code decision.reason}, as the kind file writes it. */
  @Override
  public String toString() {
    return decision + "." + reason;
  }
}
