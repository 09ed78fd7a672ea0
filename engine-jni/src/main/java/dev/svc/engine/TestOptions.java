package dev.svc.engine;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link Engine#test(List, List, TestOptions)} runs besides the policy files and the test
 * files: the files a case's {@code input_file} reads, which cases run, and trusted files.
 *
 * <pre>{@code
 * List<TestResult> results = engine.test(files, testFiles, TestOptions.defaults()
 *     .withDataFiles(List.of(SourceFile.of("checkout/testdata/page.json", json)))
 *     .withRun("pages"));
 * }</pre>
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param dataFiles the files cases read as {@code input_file}, by path: a case's {@code
 *     input_file} is relative to its test file's directory ({@code testdata/a.json} from {@code
 *     checkout/alerts_test.yaml} is {@code checkout/testdata/a.json}); a name ending in {@code
 *     .yaml} or {@code .yml} is read as YAML, any other as JSON
 * @param run a Go regular expression matched (unanchored) against case names: only matching cases
 *     run, though every case is still validated; empty runs every case
 * @param trustedFiles files loaded as the trusted source: their document names are reserved and
 *     resolve first
 */
public record TestOptions(
    List<SourceFile> dataFiles, Optional<String> run, List<SourceFile> trustedFiles) {

  /**
   * Copies the lists; nothing may be null.
   *
   * @param dataFiles the data files
   * @param run the case name pattern
   * @param trustedFiles the trusted files
   */
  public TestOptions {
    dataFiles = List.copyOf(dataFiles);
    Objects.requireNonNull(run, "run");
    trustedFiles = List.copyOf(trustedFiles);
  }

  /**
   * No data files, every case, no trusted files.
   *
   * @return the defaults
   */
  public static TestOptions defaults() {
    return new TestOptions(List.of(), Optional.empty(), List.of());
  }

  /**
   * A copy whose cases can read {@code files} as their {@code input_file}.
   *
   * @param files the data files
   * @return the new options
   */
  public TestOptions withDataFiles(List<SourceFile> files) {
    return new TestOptions(files, run, trustedFiles);
  }

  /**
   * A copy that runs only the cases whose name {@code pattern} matches.
   *
   * @param pattern a Go regular expression, matched anywhere in a case's name
   * @return the new options
   */
  public TestOptions withRun(String pattern) {
    return new TestOptions(dataFiles, Optional.of(Objects.requireNonNull(pattern, "pattern")), trustedFiles);
  }

  /**
   * A copy that loads {@code files} as the trusted source.
   *
   * @param files the trusted files
   * @return the new options
   */
  public TestOptions withTrustedFiles(List<SourceFile> files) {
    return new TestOptions(dataFiles, run, files);
  }
}
