package dev.svc.cli.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;


import dev.svc.cli.CapturedRun;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs {@code svc policy …} in-process in a working directory of the test's choosing, with stdin,
 * environment and terminal faked, and captures stdout, stderr and the exit status.
 *
 * @param exit the exit status
 * @param out what went to stdout
 * @param err what went to stderr
 */
record PolicyRun(int exit, String out, String err) {

  /** Set to {@code true} to rewrite the goldens from the current output. */
  private static final boolean UPDATE = Boolean.getBoolean("svc.update.goldens");

  /** Runs {@code args} in {@code dir} with empty stdin, no terminal and no environment. */
  static PolicyRun in(Path dir, String... args) {
    return with(new Workspace(dir, new ByteArrayInputStream(new byte[0]), Map.of(), false), args);
  }

  /** Runs {@code args} in {@code dir} with {@code stdin} as stdin. */
  static PolicyRun withStdin(Path dir, String stdin, String... args) {
    return with(new Workspace(dir, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), Map.of(), false),
        args);
  }

  /** Runs {@code args} in {@code workspace}. */
  static PolicyRun with(Workspace workspace, String... args) {
    CapturedRun run = CapturedRun.of(PolicyCommand.commandLine(workspace), args);
    return new PolicyRun(run.exit(), run.out(), run.err());
  }

  /** The spec's examples directory, or the test is skipped where it isn't (never under CI). */
  static Path examples() {
    String configured = System.getenv("SIGIL_SPEC_EXAMPLES");
    Path root = Path.of(System.getProperty("svc.root", "..")).toAbsolutePath();
    Path dir = configured != null ? Path.of(configured) : root.resolve("../shared/spec/examples").normalize();
    if (!Files.isDirectory(dir) && System.getenv("CI") != null) {
      throw new IllegalStateException("the spec examples are missing at " + dir + "; set SIGIL_SPEC_EXAMPLES");
    }
    assumeTrue(Files.isDirectory(dir), "spec examples not found at " + dir + "; set SIGIL_SPEC_EXAMPLES");
    return dir;
  }

  /** The policy example {@code name}, such as {@code 01-refund-gate}. */
  static Path scenario(String name) {
    return examples().resolve("policies").resolve(name);
  }

  /** A copy of the test project (a kind, two policies, a test file) in {@code dir}. */
  static Path project(Path dir) {
    try {
      Path source = Path.of(PolicyRun.class.getResource("project").toURI());
      try (Stream<Path> files = Files.walk(source)) {
        for (Path file : (Iterable<Path>) files::iterator) {
          Path target = dir.resolve(source.relativize(file).toString());
          if (Files.isDirectory(file)) {
            Files.createDirectories(target);
          } else {
            Files.copy(file, target);
          }
        }
      }
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Asserts {@code actual} equals the golden file {@code name} (or rewrites it with -Dsvc.update.goldens=true). */
  static void assertGolden(String name, String actual) {
    Path golden = Path.of("src/test/resources/dev/svc/cli/policy/golden").resolve(name);
    try {
      if (UPDATE) {
        Files.writeString(golden, actual);
      }
      assumeTrue(Files.exists(golden) || UPDATE, "golden " + name + " is missing");
      assertThat(actual).as("golden %s", name).isEqualTo(Files.readString(golden));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
