package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Why an evaluation failed. A failed evaluation is a result, not an exception: its outcome is the
 * kind's fallback, which the host can act on.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param kind {@code runtime}, {@code conflict}, {@code assertion} or {@code canceled}
 * @param phase for {@code assertion}: {@code input} or {@code outcome}
 * @param message what happened
 * @param help what to do
 * @param asserts for {@code assertion}: the failed asserts, in the order they failed
 * @param candidates for {@code conflict}: the conflicting candidates
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record EvalError(
    @JsonProperty(value = "kind", required = true) String kind,
    @JsonProperty("phase") Optional<String> phase,
    @JsonProperty(value = "message", required = true) String message,
    @JsonProperty(value = "help", required = true) String help,
    @JsonProperty("asserts") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<FailedAssert> asserts,
    @JsonProperty("candidates") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<EvalEntry> candidates) {

  /**
   * Checks the required parts; absent parts become empty.
   *
   * @param kind the kind of failure
   * @param phase the assert phase
   * @param message what happened
   * @param help what to do
   * @param asserts the failed asserts
   * @param candidates the conflicting candidates
   */
  public EvalError {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(help, "help");
    phase = phase == null ? Optional.empty() : phase;
    asserts = asserts == null ? List.of() : List.copyOf(asserts);
    candidates = candidates == null ? List.of() : List.copyOf(candidates);
  }
}
