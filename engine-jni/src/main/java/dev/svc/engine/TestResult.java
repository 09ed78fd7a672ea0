package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How one test file ran: field for field the engine's TestResult record. A file that couldn't run
 * (it isn't a valid test file, its policy is missing or doesn't check or compile, a case or stub
 * doesn't fit the kind) has an {@link #error()} and no cases.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param file the test file's path, cleaned
 * @param policy the policy the file tests; empty when the file couldn't be read
 * @param error why none of the file's cases ran: every problem, one per line
 * @param cases the cases that ran, in file order: those the run pattern selects
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record TestResult(
    @JsonProperty(value = "file", required = true) String file,
    @JsonProperty(value = "policy", required = true) @JsonInclude(JsonInclude.Include.ALWAYS)
        String policy,
    @JsonProperty("error") Optional<String> error,
    @JsonProperty("cases") @JsonInclude(JsonInclude.Include.ALWAYS) List<TestCaseResult> cases) {

  /**
   * Checks file and policy; an absent error becomes empty, absent cases an empty list.
   *
   * @param file the test file's path
   * @param policy the policy it tests
   * @param error why it couldn't run
   * @param cases the cases that ran
   */
  public TestResult {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(policy, "policy");
    error = Objects.requireNonNullElse(error, Optional.empty());
    cases = cases == null ? List.of() : List.copyOf(cases);
  }

  /**
   * Whether the file ran and every case that ran passed.
   *
   * @return true when there is no error and no failing case
   */
  public boolean passed() {
    return error.isEmpty() && cases.stream().allMatch(TestCaseResult::passed);
  }
}
