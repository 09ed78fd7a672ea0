package dev.svc.engine.kind;

import dev.svc.engine.EngineException;
import dev.svc.engine.EvalEntry;
import dev.svc.engine.EvalResult;
import java.util.List;
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

  /**
   * Whether the result's outcome is exactly one entry, of this decision with this reason. A failed
   * evaluation's outcome is the kind's fallback, so check {@link EvalResult#error()} first where a
   * failure matters.
   *
   * @param result an eval record of a policy of the kind
   * @return true when the single outcome is this one
   * @throws EngineException {@code is on a collecting kind's result, which has no single outcome;
   *     read it with matchAll} for the result of a collecting kind without precedence, or of any
   *     collecting kind when the result doesn't carry its kind's {@link EvalResult#shape() shape}
   */
  public boolean is(EvalResult result) {
    Objects.requireNonNull(result, "result");
    ResultReader.requireSingleOutcome(result, "is");
    List<EvalEntry> outcome = result.outcome();
    return outcome.size() == 1
        && outcome.get(0).decision().equals(decision)
        && outcome.get(0).reason().equals(reason);
  }

  /** {@code decision.reason}, as the kind file writes it. */
  @Override
  public String toString() {
    return decision + "." + reason;
  }
}
