package dev.svc.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link Engine#compile(List, CompileOptions)} compiles besides the files: which policy is the
 * root, trusted files, and policies the root must invoke.
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
 */
public record CompileOptions(
    Optional<String> policy, List<SourceFile> trustedFiles, List<String> required) {

  /**
   * Copies the lists; nothing may be null.
   *
   * @param policy the root's name or pattern
   * @param trustedFiles the trusted files
   * @param required the required policies
   */
  public CompileOptions {
    Objects.requireNonNull(policy, "policy");
    trustedFiles = List.copyOf(trustedFiles);
    required = List.copyOf(required);
  }

  /**
   * The only policy of the files, no trusted files, no requirements.
   *
   * @return the defaults
   */
  public static CompileOptions defaults() {
    return new CompileOptions(Optional.empty(), List.of(), List.of());
  }

  /**
   * A copy that compiles the policy {@code nameOrPattern} matches.
   *
   * @param nameOrPattern a policy name, or a {@code *} pattern matching exactly one
   * @return the new options
   */
  public CompileOptions withPolicy(String nameOrPattern) {
    return new CompileOptions(Optional.of(nameOrPattern), trustedFiles, required);
  }

  /**
   * A copy that loads {@code files} as the trusted source.
   *
   * @param files the trusted files
   * @return the new options
   */
  public CompileOptions withTrustedFiles(List<SourceFile> files) {
    return new CompileOptions(policy, files, required);
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
    return new CompileOptions(policy, trustedFiles, more);
  }
}
