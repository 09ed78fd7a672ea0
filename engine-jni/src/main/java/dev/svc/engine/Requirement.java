package dev.svc.engine;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A policy the host requires: every root policy of its kind must invoke it unconditionally (at the
 * top level, not under {@code when}), directly or through policies it invokes. Violations are
 * error diagnostics at the root, or at the gated call.
 *
 * <pre>{@code
 * Requirement guardrails = Requirement.of("deploy.guardrails")
 *     .withTrusted("platform/")
 *     .withRoots("payments.*");
 * }</pre>
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param policy the required policy's name (not a pattern)
 * @param trusted paths the required policy must come from; files at or below them are read as
 *     trusted, and each path must hold a file of the request. Empty: from anywhere
 * @param roots patterns of the policies it applies to; empty means every policy of its kind that
 *     no other policy invokes. Each pattern must match a policy, and some of them one of its kind
 */
public record Requirement(String policy, List<String> trusted, Optional<List<String>> roots) {

  /**
   * Copies the lists; nothing may be null.
   *
   * @param policy the required policy's name
   * @param trusted the paths it must come from
   * @param roots the patterns of its roots, or empty for the default roots
   */
  public Requirement {
    Objects.requireNonNull(policy, "policy");
    trusted = List.copyOf(trusted);
    roots = roots.map(List::copyOf);
  }

  /**
   * Requires {@code policy} of every root of its kind, from wherever the bundle defines it.
   *
   * @param policy the required policy's name, such as {@code deploy.guardrails}
   * @return the requirement
   */
  public static Requirement of(String policy) {
    return new Requirement(policy, List.of(), Optional.empty());
  }

  /**
   * A copy whose policy must come from {@code paths} (files or directories of the request).
   *
   * @param paths the trusted paths, such as {@code platform/}
   * @return the new requirement
   */
  public Requirement withTrusted(String... paths) {
    return new Requirement(policy, List.of(paths), roots);
  }

  /**
   * A copy that applies to the policies {@code patterns} match instead of the default roots.
   *
   * @param patterns policy names or {@code *} patterns
   * @return the new requirement
   */
  public Requirement withRoots(String... patterns) {
    return new Requirement(policy, trusted, Optional.of(List.of(patterns)));
  }
}
