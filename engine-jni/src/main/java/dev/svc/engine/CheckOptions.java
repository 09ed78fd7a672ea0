package dev.svc.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What {@link Engine#check(List, CheckOptions)} checks besides the files: trusted files, the
 * policies to narrow the check to, required policies, and the levels of lints.
 *
 * <pre>{@code
 * List<Diagnostic> problems = engine.check(files, CheckOptions.defaults()
 *     .withPolicies("payments.*")
 *     .withLint("unused-let", LintLevel.ERROR));
 * }</pre>
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param trustedFiles files loaded as the trusted source: their document names are reserved and
 *     resolve first
 * @param policies name patterns ({@code *} matches any run of characters, dots included); when
 *     given, only the matched policies and what they use are checked, and a pattern matching no
 *     policy fails the check
 * @param requirements policies every root of their kind must invoke unconditionally; the check is
 *     strict, so the files must hold every file a requirement names
 * @param lints lint name to level; lints not named keep their defaults, an unknown name or level
 *     fails the check with a did-you-mean
 */
public record CheckOptions(
    List<SourceFile> trustedFiles,
    List<String> policies,
    List<Requirement> requirements,
    Map<String, LintLevel> lints) {

  /**
   * Copies the lists and the map; none may be null.
   *
   * @param trustedFiles the trusted files
   * @param policies the name patterns
   * @param requirements the required policies
   * @param lints the lint levels
   */
  public CheckOptions {
    trustedFiles = List.copyOf(trustedFiles);
    policies = List.copyOf(policies);
    requirements = List.copyOf(requirements);
    lints = Map.copyOf(lints);
  }

  /**
   * No trusted files, every policy, no requirements, the lints at their default levels.
   *
   * @return the defaults
   */
  public static CheckOptions defaults() {
    return new CheckOptions(List.of(), List.of(), List.of(), Map.of());
  }

  /**
   * A copy that loads {@code files} as the trusted source.
   *
   * @param files the trusted files
   * @return the new options
   */
  public CheckOptions withTrustedFiles(List<SourceFile> files) {
    return new CheckOptions(files, policies, requirements, lints);
  }

  /**
   * A copy narrowed to the policies {@code patterns} match, and what they use.
   *
   * @param patterns policy names or {@code *} patterns
   * @return the new options
   */
  public CheckOptions withPolicies(String... patterns) {
    return new CheckOptions(trustedFiles, List.of(patterns), requirements, lints);
  }

  /**
   * A copy that also enforces {@code requirement}.
   *
   * @param requirement a required policy
   * @return the new options
   */
  public CheckOptions withRequirement(Requirement requirement) {
    List<Requirement> more = new ArrayList<>(requirements);
    more.add(Objects.requireNonNull(requirement, "requirement"));
    return new CheckOptions(trustedFiles, policies, more, lints);
  }

  /**
   * A copy that reports lint {@code name} at {@code level}.
   *
   * @param name the lint, such as {@code unused-let}
   * @param level how to report its findings
   * @return the new options
   */
  public CheckOptions withLint(String name, LintLevel level) {
    Map<String, LintLevel> changed = new TreeMap<>(lints);
    changed.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(level, "level"));
    return new CheckOptions(trustedFiles, policies, requirements, changed);
  }
}
