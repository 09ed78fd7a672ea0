package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.util.StdConverter;
import java.util.List;
import java.util.Objects;

/**
 * A policy flattened into every decision rule and assert it can reach, as {@code sigil explain}
 * prints it, without evaluating anything: invoked policies are inlined where they are called, their
 * params shown by their values (a param nothing binds, by its name). Field for field the engine's
 * Explanation record.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param policy the explained policy
 * @param policies how many policies it compiled in: itself and the policies it imports
 * @param modules how many modules it imports
 * @param rules every decision rule in source order, invocations inlined, then every assert in the
 *     same order; empty when it has none (the engine writes {@code null} then, and so does this
 *     record)
 */
public record Explanation(
    @JsonProperty(value = "policy", required = true) String policy,
    @JsonProperty(value = "policies", required = true) int policies,
    @JsonProperty(value = "modules", required = true) int modules,
    @JsonProperty("rules")
        @JsonInclude(JsonInclude.Include.ALWAYS)
        @JsonSerialize(converter = Explanation.EmptyAsNull.class)
        List<ExplainEntry> rules) {

  /**
   * Checks the policy's name; absent rules become an empty list.
   *
   * @param policy the explained policy
   * @param policies how many policies it compiled in
   * @param modules how many modules
   * @param rules its rules, then its asserts
   */
  public Explanation {
    Objects.requireNonNull(policy, "policy");
    rules = rules == null ? List.of() : List.copyOf(rules);
  }

  /** Writes no rules as {@code null}, as the engine does. */
  static final class EmptyAsNull extends StdConverter<List<ExplainEntry>, List<ExplainEntry>> {
    @Override
    public List<ExplainEntry> convert(List<ExplainEntry> rules) {
      return rules.isEmpty() ? null : rules;
    }
  }
}
