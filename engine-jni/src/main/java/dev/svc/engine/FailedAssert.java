package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One assert that didn't hold, an entry of {@link EvalFailure#asserts()}.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param reason the assert's name
 * @param policy the policy or module that holds the assert
 * @param position the invocation sites that reached it, then the assert's own position, joined by
 *     {@code " → "}
 * @param cause when evaluating the condition raised a runtime error: {@code «position»: «message»}
 * @param help that runtime error's own help, when it has one
 * @param outcome for an outcome assert after rules fired: the top candidates it read
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record FailedAssert(
    @JsonProperty(value = "reason", required = true) String reason,
    @JsonProperty(value = "policy", required = true) String policy,
    @JsonProperty(value = "position", required = true) String position,
    @JsonProperty("cause") Optional<String> cause,
    @JsonProperty("help") Optional<String> help,
    @JsonProperty("outcome") List<EvalEntry> outcome) {

  /**
   * Checks the required parts; an absent outcome becomes empty.
   *
   * @param reason the assert's name
   * @param policy where it is
   * @param position its position
   * @param cause the runtime error its condition raised
   * @param help that error's help
   * @param outcome the candidates it read
   */
  public FailedAssert {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(position, "position");
    cause = cause == null ? Optional.empty() : cause;
    help = help == null ? Optional.empty() : help;
    outcome = outcome == null ? List.of() : List.copyOf(outcome);
  }
}
