package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The eval record of one evaluation: what the host acts on ({@link #outcome()}, and for a kind that
 * collects one decision its {@link #decision()}, {@link #reason()} and {@link #payload()}), every
 * candidate the rules produced ({@link #trace()}), and why it failed, if it did.
 *
 * <p>Written with Jackson (with the JDK 8 module for {@link Optional}), it is the eval record the
 * engine wrote, byte for byte in key order and omissions: absent members stay absent.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param payload the single outcome's payload, when the kind collects one and it has fields
 * @param error why the evaluation failed; empty when it succeeded
 * @param policy the root policy
 * @param decision the single outcome's decision, when the kind collects one
 * @param reason the single outcome's reason, when the kind collects one
 * @param outcome what the host acts on: the top candidates, the default, the conflict outcome, or
 *     nothing
 * @param trace every candidate, winners first; empty when the evaluation left it out ({@link
 *     EvalOptions#withoutTrace()}), which the record written back shows as an empty trace
 * @param collect whether the kind collects every top candidate
 * @param shape how the kind's results read, when the policy came from {@link
 *     dev.svc.engine.kind.Kind#compile(Engine, List, dev.svc.engine.kind.KindCompileOptions)
 *     Kind.compile}; not part of the eval record's JSON
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record EvalResult(
    @JsonProperty("payload") Optional<JsonNode> payload,
    @JsonProperty("error") Optional<EvalFailure> error,
    @JsonProperty(value = "policy", required = true) String policy,
    @JsonProperty("decision") Optional<String> decision,
    @JsonProperty("reason") Optional<String> reason,
    @JsonProperty(value = "outcome", required = true) List<EvalEntry> outcome,
    @JsonProperty("trace") List<EvalEntry> trace,
    @JsonProperty("collect") @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean collect,
    @JsonIgnore Optional<ResultShape> shape) {

  /**
   * Checks the required parts.
   *
   * @param payload the single outcome's payload
   * @param error why it failed
   * @param policy the root policy
   * @param decision the single outcome's decision
   * @param reason its reason
   * @param outcome the outcome entries
   * @param trace the trace entries
   * @param collect whether the kind collects all
   * @param shape how the kind's results read
   */
  public EvalResult {
    Objects.requireNonNull(policy, "policy");
    // Jackson reads an absent JsonNode as NullNode; the engine never writes a null payload.
    payload = payload == null ? Optional.empty() : payload.filter(p -> !p.isNull());
    error = error == null ? Optional.empty() : error;
    decision = decision == null ? Optional.empty() : decision;
    reason = reason == null ? Optional.empty() : reason;
    outcome = List.copyOf(outcome);
    trace = trace == null ? List.of() : List.copyOf(trace);
    shape = shape == null ? Optional.empty() : shape;
  }

  /**
   * This result marked with the shape of its kind's results.
   *
   * @param shape how the kind's results read
   * @return a copy with {@link #shape()} set
   */
  public EvalResult withShape(ResultShape shape) {
    Objects.requireNonNull(shape, "shape");
    return new EvalResult(
        payload, error, policy, decision, reason, outcome, trace, collect, Optional.of(shape));
  }

  /**
   * Whether the evaluation succeeded.
   *
   * @return true when there is no error
   */
  public boolean succeeded() {
    return error.isEmpty();
  }
}
