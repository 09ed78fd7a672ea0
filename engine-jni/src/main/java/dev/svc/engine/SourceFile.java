package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * One file of a request: the path diagnostics name it by and its text. The engine cleans the path
 * as POSIX {@code path.Clean} does ({@code ./a//b.sigil} is {@code a/b.sigil}); documents are found
 * by the names in their headers, never by path.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param path the file's path, never empty
 * @param source the file's text
 */
public record SourceFile(
    @JsonProperty("path") String path, @JsonProperty("source") String source) {

  /**
   * Checks that both parts are given and the path isn't empty.
   *
   * @param path the file's path
   * @param source the file's text
   * @throws IllegalArgumentException if the path is empty
   */
  public SourceFile {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(source, "source");
    if (path.isEmpty()) {
      throw new IllegalArgumentException(
          "a source file needs a path, such as access/main.sigil; diagnostics name files by it");
    }
  }

  /**
   * A file called {@code path} holding {@code source}.
   *
   * @param path the file's path
   * @param source the file's text
   * @return the file
   */
  public static SourceFile of(String path, String source) {
    return new SourceFile(path, source);
  }
}
