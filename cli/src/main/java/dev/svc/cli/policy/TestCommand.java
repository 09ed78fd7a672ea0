package dev.svc.cli.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.svc.engine.Engine;
import dev.svc.engine.SourceFile;
import dev.svc.engine.TestOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code svc policy test}: runs every test file ({@code *_test.yaml}, {@code *_test.yml}) the paths
 * hold against the bundle of every {@code .sigil} file they hold (tooling spec §7). Fails when a
 * case fails or a test file can't run.
 */
@Command(name = "test", mixinStandardHelpOptions = true,
    description = "Run the policy test files (*_test.yaml) against the policies.")
final class TestCommand implements Callable<Integer> {

  private static final YAMLMapper YAML = new YAMLMapper();

  @Mixin RunGuard guard;
  @Mixin ProjectOptions project;

  @Option(names = "--run", paramLabel = "<regexp>",
      description = "Run only the cases whose name this regular expression matches (unanchored); every case is still validated.")
  String run;

  @Option(names = {"-v", "--verbose"}, description = "List the passing cases too.")
  boolean verbose;

  @Override
  public Integer call() {
    return guard.run(this::test);
  }

  private int test(Console console) {
    ProjectOptions.Project loaded = project.load(console, name -> Sources.isSigil(name) || Sources.isTestFile(name));
    List<SourceFile> sources = new ArrayList<>();
    List<SourceFile> tests = new ArrayList<>();
    for (SourceFile file : loaded.files()) {
      (Sources.isTestFile(file.path()) ? tests : sources).add(file);
    }
    if (tests.isEmpty()) {
      throw new PolicyException("no test files found",
          "a test file's name ends in _test.yaml or _test.yml; name it, or a directory that holds it");
    }
    TestOptions options = TestOptions.defaults()
        .withTrustedFiles(loaded.trustedFiles())
        .withDataFiles(dataFiles(console.workspace(), tests));
    if (run != null) {
      options = options.withRun(run);
    }
    byte[] records;
    try (Engine engine = Console.engine()) {
      records = engine.testJson(sources, tests, options);
    }
    List<Object> results = JsonTree.list(JsonTree.parse(new String(records, StandardCharsets.UTF_8)));
    if (console.isText()) {
      text(console, results);
    } else {
      console.records(records);
    }
    boolean failed = results.stream().map(JsonTree::object)
        .anyMatch(r -> r.containsKey("error") || JsonTree.list(r.get("cases")).stream()
            .anyMatch(c -> !Boolean.TRUE.equals(JsonTree.object(c).get("passed"))));
    return failed ? PolicyCommand.FAILED : 0;
  }

  // The input files the cases name, relative to their test file; a missing one is the engine's to report.
  private static List<SourceFile> dataFiles(Workspace workspace, List<SourceFile> tests) {
    Map<String, SourceFile> data = new LinkedHashMap<>();
    for (SourceFile test : tests) {
      JsonNode document;
      try {
        document = YAML.readTree(test.source());
      } catch (IOException e) {
        continue; // the engine reports the test file as invalid
      }
      if (document == null) {
        continue;
      }
      int slash = test.path().lastIndexOf('/');
      String dir = slash < 0 ? "" : test.path().substring(0, slash + 1);
      for (JsonNode testCase : document.path("cases")) {
        JsonNode inputFile = testCase.path("input_file");
        if (!inputFile.isTextual()) {
          continue;
        }
        String path = Sources.clean(dir + inputFile.asText());
        try {
          data.putIfAbsent(path, SourceFile.of(path, Files.readString(workspace.resolve(path))));
        } catch (IOException | RuntimeException e) {
          // Left out: the case reports that its input_file couldn't be read.
        }
      }
    }
    return List.copyOf(data.values());
  }

  private void text(Console console, List<Object> results) {
    PolicyColors theme = console.theme();
    int cases = 0;
    int failedCases = 0;
    int brokenFiles = 0;
    for (Object item : results) {
      Map<String, Object> result = JsonTree.object(item);
      String file = JsonTree.text(result.get("file"));
      if (result.containsKey("error")) {
        brokenFiles++;
        console.out().println(theme.fail("FAIL") + "  " + file);
        for (String line : JsonTree.text(result.get("error")).split("\n", -1)) {
          console.out().println(line.isEmpty() ? "" : "    " + line);
        }
        continue;
      }
      List<Object> fileCases = JsonTree.list(result.get("cases"));
      int failed = 0;
      for (Object c : fileCases) {
        Map<String, Object> testCase = JsonTree.object(c);
        boolean passed = Boolean.TRUE.equals(testCase.get("passed"));
        String where = file + ":" + JsonTree.text(testCase.get("line")) + ": " + JsonTree.text(testCase.get("name"));
        if (passed) {
          if (verbose) {
            console.out().println("--- " + theme.ok("PASS") + ": " + where);
          }
          continue;
        }
        failed++;
        console.out().println("--- " + theme.fail("FAIL") + ": " + where);
        if (testCase.containsKey("error")) {
          console.out().println("      " + JsonTree.text(testCase.get("error")));
        }
        for (Object failure : JsonTree.list(testCase.get("failures"))) {
          console.out().println("      " + JsonTree.text(failure));
        }
      }
      cases += fileCases.size();
      failedCases += failed;
      if (failed > 0) {
        console.out().println(theme.fail("FAIL") + "  " + file + "  " + failed + " of " + Counts.of(fileCases.size(), "case", "cases") + " failed");
      } else {
        console.out().println(theme.ok("ok") + "    " + file + "  " + Counts.of(fileCases.size(), "case", "cases"));
      }
    }
    String files = Counts.of(results.size(), "file", "files");
    if (brokenFiles > 0) {
      console.summary(Console.Outcome.FAILED, brokenFiles + " of " + Counts.of(results.size(), "test file", "test files") + " couldn't run");
    } else if (failedCases > 0) {
      console.summary(Console.Outcome.FAILED, failedCases + " of " + Counts.of(cases, "test case", "test cases") + " failed in " + files);
    } else {
      console.summary(Console.Outcome.CLEAN, Counts.of(cases, "case", "cases") + " passed in " + files);
    }
  }
}
