package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One decision rule or assert of an {@link Explanation}: what it returns or checks, the chain of
 * invocations that reaches it, and the conditions that guard it. Field for field the engine's
 * ExplainEntry record; what only a rule or only an assert has is empty for the other.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param kind {@code decision} for a rule, {@code assert} for an assert
 * @param decision the decision a rule returns; empty for an assert
 * @param reason a rule's reason, or an assert's name
 * @param phase {@code input} or {@code outcome} (an assert that reads {@code outcome}); empty for a
 *     rule
 * @param chain {@code document:line} of each invocation from the root inwards, then of the rule or
 *     assert itself
 * @param conditions the text of every {@code when} that guards it, the call sites' first, outermost
 *     first; empty when nothing does
 * @param check an assert's own condition; empty for a rule
 * @param payload {@code field = expression} for each payload argument a rule writes, in source
 *     order; empty for an assert and for a rule that writes none
 */
public record ExplainEntry(
    @JsonProperty(value = "kind", required = true) String kind,
    @JsonProperty("decision") @JsonInclude(JsonInclude.Include.NON_EMPTY) Optional<String> decision,
    @JsonProperty(value = "reason", required = true) String reason,
    @JsonProperty("phase") @JsonInclude(JsonInclude.Include.NON_EMPTY) Optional<String> phase,
    @JsonProperty(value = "chain", required = true) List<String> chain,
    @JsonProperty(value = "conditions", required = true) List<String> conditions,
    @JsonProperty("check") @JsonInclude(JsonInclude.Include.NON_EMPTY) Optional<String> check,
    @JsonProperty("payload") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> payload) {

  /**
   * Checks the parts every entry has; absent optional parts become empty.
   *
   * @param kind {@code decision} or {@code assert}
   * @param decision a rule's decision
   * @param reason the reason or the assert's name
   * @param phase an assert's phase
   * @param chain the call sites, then the entry itself
   * @param conditions the conditions
   * @param check an assert's condition
   * @param payload a rule's payload arguments
   */
  public ExplainEntry {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(reason, "reason");
    decision = Objects.requireNonNullElse(decision, Optional.empty());
    phase = Objects.requireNonNullElse(phase, Optional.empty());
    chain = List.copyOf(chain);
    conditions = List.copyOf(conditions);
    check = Objects.requireNonNullElse(check, Optional.empty());
    payload = payload == null ? List.of() : List.copyOf(payload);
  }
}
