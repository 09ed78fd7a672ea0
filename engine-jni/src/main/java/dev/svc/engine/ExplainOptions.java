package dev.svc.engine;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link Engine#explain(List, ExplainOptions)} explains besides the files: which policies, and
 * trusted files.
 *
 * <pre>{@code
 * List<Explanation> explained = engine.explain(files, ExplainOptions.defaults().withPolicy("payments.*"));
 * }</pre>
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param policy a name or {@code *} pattern of the policies to explain; empty for every policy
 *     outside the trusted files
 * @param trustedFiles files loaded as the trusted source: their names are reserved, they resolve
 *     first, and their policies are never explained themselves
 */
public record ExplainOptions(Optional<String> policy, List<SourceFile> trustedFiles) {

  /**
   * Copies the list; nothing may be null.
   *
   * @param policy the name or pattern of the policies to explain
   * @param trustedFiles the trusted files
   */
  public ExplainOptions {
    Objects.requireNonNull(policy, "policy");
    trustedFiles = List.copyOf(trustedFiles);
  }

  /**
   * Every policy of the files, no trusted files.
   *
   * @return the defaults
   */
  public static ExplainOptions defaults() {
    return new ExplainOptions(Optional.empty(), List.of());
  }

  /**
   * A copy that explains the policies {@code nameOrPattern} matches.
   *
   * @param nameOrPattern a policy name, or a {@code *} pattern
   * @return the new options
   */
  public ExplainOptions withPolicy(String nameOrPattern) {
    return new ExplainOptions(Optional.of(nameOrPattern), trustedFiles);
  }

  /**
   * A copy that loads {@code files} as the trusted source.
   *
   * @param files the trusted files
   * @return the new options
   */
  public ExplainOptions withTrustedFiles(List<SourceFile> files) {
    return new ExplainOptions(policy, files);
  }
}
