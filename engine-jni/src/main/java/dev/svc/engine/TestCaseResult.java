package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How one test case ran: field for field the engine's CaseResult record.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param name the case's name
 * @param error why the case couldn't run: its {@code input_file} isn't among the data files or
 *     doesn't parse, or its input doesn't fit the kind
 * @param failures how the evaluation differs from what the case expects, one sentence each, such
 *     as {@code got allow(reason: admin), want allow(reason: team_member)}
 * @param line the case's line in its test file
 * @param passed whether the case ran and got what it expects
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record TestCaseResult(
    @JsonProperty(value = "name", required = true) @JsonInclude(JsonInclude.Include.ALWAYS)
        String name,
    @JsonProperty("error") Optional<String> error,
    @JsonProperty("failures") List<String> failures,
    @JsonProperty("line") int line,
    @JsonProperty("passed") boolean passed) {

  /**
   * Checks the name; an absent error becomes empty, absent failures an empty list.
   *
   * @param name the case's name
   * @param error why it couldn't run
   * @param failures how it failed
   * @param line its line
   * @param passed whether it passed
   */
  public TestCaseResult {
    Objects.requireNonNull(name, "name");
    error = Objects.requireNonNullElse(error, Optional.empty());
    failures = failures == null ? List.of() : List.copyOf(failures);
  }
}
