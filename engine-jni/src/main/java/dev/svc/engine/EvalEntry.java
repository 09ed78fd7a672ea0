package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One candidate of an evaluation, as the eval record lists it in {@code outcome}, {@code trace} and
 * a conflict's candidates.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param payload every payload field of the decision, by name; empty when it has none
 * @param decision the decision
 * @param reason its reason
 * @param policy the policy whose rule produced it; empty for the kind's default or conflict outcome
 * @param position where the rule is, {@code file:line:column}; empty for a fallback
 * @param chain the invocation call sites from the root inwards
 * @param conditions the {@code when} conditions that held, outermost first, where the record shows
 *     them
 * @param outcome whether this trace entry is represented in the outcome
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record EvalEntry(
    @JsonProperty("payload") Optional<JsonNode> payload,
    @JsonProperty(value = "decision", required = true) String decision,
    @JsonProperty(value = "reason", required = true) String reason,
    @JsonProperty("policy") Optional<String> policy,
    @JsonProperty("position") Optional<String> position,
    @JsonProperty("chain") List<String> chain,
    @JsonProperty("conditions") List<String> conditions,
    @JsonProperty("outcome") @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean outcome) {

  /**
   * Checks decision and reason; absent lists become empty.
   *
   * @param payload the payload
   * @param decision the decision
   * @param reason the reason
   * @param policy the rule's policy
   * @param position the rule's position
   * @param chain the call sites
   * @param conditions the conditions
   * @param outcome whether it is in the outcome
   */
  public EvalEntry {
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(reason, "reason");
    // Jackson reads an absent JsonNode as NullNode; the engine never writes a null payload.
    payload = payload == null ? Optional.empty() : payload.filter(p -> !p.isNull());
    policy = policy == null ? Optional.empty() : policy;
    position = position == null ? Optional.empty() : position;
    chain = chain == null ? List.of() : List.copyOf(chain);
    conditions = conditions == null ? List.of() : List.copyOf(conditions);
  }
}
