package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Why an evaluation failed, the eval record's {@code error}. A failed evaluation is a result, not an
 * exception: its outcome is the kind's fallback, which the host can act on.
 *
 * <pre>{@code
 * result.error().ifPresent(failure -> {
 *   if (failure.kind() == EvalFailure.Kind.ASSERTION) {
 *     failure.asserts().forEach(a -> log.warn("{} failed at {}", a.reason(), a.position()));
 *   }
 * });
 * }</pre>
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param kind what went wrong
 * @param phase for {@link Kind#ASSERTION}: whether the asserts checked the input or the outcome
 * @param message what happened; a runtime error's message starts with its position
 * @param help what to do
 * @param asserts for {@link Kind#ASSERTION}: the failed asserts, in the order they failed
 * @param candidates for {@link Kind#CONFLICT}: the conflicting candidates
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record EvalFailure(
    @JsonProperty(value = "kind", required = true) Kind kind,
    @JsonProperty("phase") Optional<Phase> phase,
    @JsonProperty(value = "message", required = true) String message,
    @JsonProperty(value = "help", required = true) String help,
    @JsonProperty("asserts") List<FailedAssert> asserts,
    @JsonProperty("candidates") List<EvalEntry> candidates) {

  /** What made an evaluation fail; written in lower case in the record. */
  public enum Kind {
    /** An expression failed: a missing key, a division by zero, a host function's error. */
    @JsonProperty("runtime")
    RUNTIME,
    /** The top candidates of a {@code collect one} kind disagree, or an exclusive set is broken. */
    @JsonProperty("conflict")
    CONFLICT,
    /** One or more asserts of the policy didn't hold. */
    @JsonProperty("assertion")
    ASSERTION,
    /** The evaluation ran past its deadline, so nothing it found counts. */
    @JsonProperty("canceled")
    CANCELED
  }

  /** When the failed asserts were checked; written in lower case in the record. */
  public enum Phase {
    /** Before any rule ran, against the input. */
    @JsonProperty("input")
    INPUT,
    /** After the rules, against the outcome they reached. */
    @JsonProperty("outcome")
    OUTCOME
  }

  /**
   * Checks the required parts; absent lists become empty.
   *
   * @param kind the kind of failure
   * @param phase the assert phase
   * @param message what happened
   * @param help what to do
   * @param asserts the failed asserts
   * @param candidates the conflicting candidates
   */
  public EvalFailure {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(help, "help");
    phase = phase == null ? Optional.empty() : phase;
    asserts = asserts == null ? List.of() : List.copyOf(asserts);
    candidates = candidates == null ? List.of() : List.copyOf(candidates);
  }
}
