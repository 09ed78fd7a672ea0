package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One assert that failed an evaluation, as the eval record lists it in {@link EvalError#asserts()}.
 * Field for field the engine's FailedAssert record; absent parts are empty.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param reason the assert's name
 * @param policy the policy or module that holds the assert
 * @param position the invocation sites on the way, then the assert's own position, joined by
 *     {@code " → "}
 * @param cause {@code «position»: «message»} of the runtime error the assert's condition raised;
 *     empty when the condition was simply false
 * @param help that runtime error's own help, if it has one
 * @param outcome for an assert on the outcome, the top candidates it read; empty for an assert on
 *     the input, or when the outcome was the kind's default
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record FailedAssert(
    @JsonProperty(value = "reason", required = true) String reason,
    @JsonProperty(value = "policy", required = true) String policy,
    @JsonProperty(value = "position", required = true) String position,
    @JsonProperty("cause") Optional<String> cause,
    @JsonProperty("help") Optional<String> help,
    @JsonProperty("outcome") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<EvalEntry> outcome) {

  /**
   * Checks the parts every failed assert has; absent parts become empty.
   *
   * @param reason the assert's name
   * @param policy the policy or module that holds it
   * @param position where it is, after the invocation sites
   * @param cause the runtime error of its condition
   * @param help that error's help
   * @param outcome the top candidates an outcome assert read
   */
  public FailedAssert {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(position, "position");
    cause = Objects.requireNonNullElse(cause, Optional.empty());
    help = Objects.requireNonNullElse(help, Optional.empty());
    outcome = outcome == null ? List.of() : List.copyOf(outcome);
  }
}
