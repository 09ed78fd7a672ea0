package dev.svc.engine;

import java.util.Objects;
import java.util.Optional;

/**
 * How {@link Engine#format(String, FormatOptions)} formats a source.
 *
 * <pre>{@code
 * engine.format(source, FormatOptions.defaults().withPath("payments/deploy.sigil"));
 * }</pre>
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param path the file name the diagnostics of a source that doesn't parse carry, used as given;
 *     empty means {@code <stdin>}
 */
public record FormatOptions(Optional<String> path) {

  /**
   * Checks that {@code path} is given.
   *
   * @param path the file name diagnostics carry; empty means {@code <stdin>}
   */
  public FormatOptions {
    Objects.requireNonNull(path, "path");
  }

  /**
   * The default options: no path, so diagnostics name the source {@code <stdin>}.
   *
   * @return the defaults
   */
  public static FormatOptions defaults() {
    return new FormatOptions(Optional.empty());
  }

  /**
   * A copy whose diagnostics name the source {@code path}.
   *
   * @param path the file name to report, used as given
   * @return the new options
   */
  public FormatOptions withPath(String path) {
    return new FormatOptions(Optional.of(Objects.requireNonNull(path, "path")));
  }
}
