package dev.svc.engine.kind;

import java.util.Objects;
import java.util.Optional;

/**
 * One outcome entry of a decision, as {@link Decision#matchAll(dev.svc.engine.EvalResult)} reads
 * it: how a collecting kind, which can grant a decision more than once, is read.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe, as far as the payload is.
 *
 * @param payload the entry's payload: the decision's fields by name, or the type asked for
 * @param reason the entry's reason
 * @param policy the policy whose rule produced the entry; empty for the kind's default
 * @param position where that rule is, {@code file:line:column}; empty for the kind's default
 * @param <P> the payload's type
 */
public record Matched<P>(
    P payload, String reason, Optional<String> policy, Optional<String> position) {

  /**
   * Checks that every part is given.
   *
   * @param payload the payload
   * @param reason the reason
   * @param policy the rule's policy, or empty
   * @param position the rule's position, or empty
   */
  public Matched {
    Objects.requireNonNull(payload, "payload");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(position, "position");
  }
}
