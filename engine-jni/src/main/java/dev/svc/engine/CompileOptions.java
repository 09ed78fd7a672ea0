package dev.svc.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What {@link Engine#compile(List, CompileOptions)} compiles besides the files: which policy is the
 * root, trusted files, policies the root must invoke, and stubs answering host functions.
 *
 * <pre>{@code
 * Policy policy = engine.compile(files, CompileOptions.defaults()
 *     .withPolicy("payments.deploy")
 *     .withRequired("platform.guardrails"));
 * }</pre>
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param policy the root: a name or {@code *} pattern matching exactly one policy; empty when the
 *     files hold exactly one policy
 * @param trustedFiles files loaded as the trusted source: their names are reserved, and a required
 *     policy must be defined among them when any are given
 * @param required policies the root must invoke unconditionally
 * @param stubs host function name to the stub that answers its calls; the compile fails when a
 *     stub names a function the kind doesn't declare or gives values of the wrong type
 */
public record CompileOptions(
    Optional<String> policy,
    List<SourceFile> trustedFiles,
    List<String> required,
    Map<String, Stub> stubs) {

  /**
   * Copies the lists and the map; nothing may be null.
   *
   * @param policy the root's name or pattern
   * @param trustedFiles the trusted files
   * @param required the required policies
   * @param stubs the stubs by host function name
   */
  public CompileOptions {
    Objects.requireNonNull(policy, "policy");
    trustedFiles = List.copyOf(trustedFiles);
    required = List.copyOf(required);
    stubs = Map.copyOf(stubs);
  }

  /**
   * The only policy of the files, no trusted files, no requirements.
   *
   * @return the defaults
   */
  public static CompileOptions defaults() {
    return new CompileOptions(Optional.empty(), List.of(), List.of(), Map.of());
  }

  /**
   * A copy that compiles the policy {@code nameOrPattern} matches.
   *
   * @param nameOrPattern a policy name, or a {@code *} pattern matching exactly one
   * @return the new options
   */
  public CompileOptions withPolicy(String nameOrPattern) {
    return new CompileOptions(Optional.of(nameOrPattern), trustedFiles, required, stubs);
  }

  /**
   * A copy that loads {@code files} as the trusted source.
   *
   * @param files the trusted files
   * @return the new options
   */
  public CompileOptions withTrustedFiles(List<SourceFile> files) {
    return new CompileOptions(policy, files, required, stubs);
  }

  /**
   * A copy that requires the root to invoke {@code policyName} unconditionally.
   *
   * @param policyName the required policy's name
   * @return the new options
   */
  public CompileOptions withRequired(String policyName) {
    List<String> more = new ArrayList<>(required);
    more.add(Objects.requireNonNull(policyName, "policyName"));
    return new CompileOptions(policy, trustedFiles, more, stubs);
  }

  /**
   * A copy in which {@code stub} answers the calls of host function {@code function}, replacing
   * any earlier stub of it.
   *
   * @param function the host function's name, as the kind declares it
   * @param stub what its calls get
   * @return the new options
   */
  public CompileOptions withStub(String function, Stub stub) {
    Map<String, Stub> more = new TreeMap<>(stubs);
    more.put(Objects.requireNonNull(function, "function"), Objects.requireNonNull(stub, "stub"));
    return new CompileOptions(policy, trustedFiles, required, more);
  }
}
