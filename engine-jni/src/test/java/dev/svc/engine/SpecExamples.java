package dev.svc.engine;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The spec's examples ({@code shared/spec/examples}), which are test data. */
public final class SpecExamples {

  private static final Path ROOT = Path.of(System.getProperty("svc.root", ".."));

  private SpecExamples() {}

  /**
   * The examples' directory: {@code $SIGIL_SPEC_EXAMPLES}, else {@code shared/spec/examples} beside
   * the repository. Where it is missing the calling test is skipped, except under CI ({@code CI}
   * set), where examples must never go unchecked.
   */
  public static Path dir() {
    String configured = System.getenv("SIGIL_SPEC_EXAMPLES");
    Path dir = configured != null ? Path.of(configured) : ROOT.resolve("../shared/spec/examples");
    boolean present = Files.isDirectory(dir);
    if (!present && System.getenv("CI") != null) {
      throw new IllegalStateException(
          "the spec examples are missing at " + dir + "; set SIGIL_SPEC_EXAMPLES");
    }
    assumeTrue(present, "spec examples not found at " + dir + "; set SIGIL_SPEC_EXAMPLES");
    return dir;
  }

  /** The directory of the policy example {@code name}, such as {@code 01-refund-gate}. */
  public static Path scenario(String name) {
    return dir().resolve("policies").resolve(name);
  }

  /** Every {@code .sigil} file below {@code scenario}, named by its path relative to it, sorted. */
  public static List<SourceFile> sigilFiles(Path scenario) {
    try (Stream<Path> paths = Files.walk(scenario)) {
      return paths
          .filter(p -> p.toString().endsWith(".sigil"))
          .sorted()
          .map(p -> SourceFile.of(scenario.relativize(p).toString(), read(p)))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The text of {@code file}, UTF-8. */
  public static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + file, e);
    }
  }
}
