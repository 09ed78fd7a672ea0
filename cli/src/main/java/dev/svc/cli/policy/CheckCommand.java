package dev.svc.cli.policy;

import dev.svc.engine.CheckOptions;
import dev.svc.engine.Diagnostic;
import dev.svc.engine.Engine;
import dev.svc.engine.Requirement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code svc policy check}: every problem of the bundle the paths name (tooling spec §3): syntax and
 * type errors, requirement violations, lint findings at the configured levels.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
    description = "Check policies against their kinds, enforce required policies and run the lints.")
final class CheckCommand implements Callable<Integer> {

  @Mixin RunGuard guard;
  @Mixin ProjectOptions project;

  @Option(names = {"-p", "--policy"}, paramLabel = "<pattern>",
      description = "Check only this policy and what it uses; * matches any run of characters (repeatable).")
  List<String> policies = new ArrayList<>();

  @Option(names = "--require", paramLabel = "<policy>",
      description = "A policy every root must invoke unconditionally (repeatable); replaces the configuration's require.")
  List<String> requires = new ArrayList<>();

  @Option(names = "-R", hidden = true, description = "Accepted for compatibility; directories are always read recursively.")
  boolean recursive;

  @Override
  public Integer call() {
    return guard.run(this::check);
  }

  private int check(Console console) {
    if (recursive) {
      console.err().println("-R is deprecated and does nothing: a directory is always read with every level below it");
    }
    ProjectOptions.Project loaded = project.load(console, Sources::isSigil);
    if (loaded.files().isEmpty()) {
      if (console.isText()) {
        console.summary(Console.Outcome.WARNINGS, "no .sigil files found, so nothing was checked");
      } else {
        console.records("[]");
      }
      return 0;
    }
    CheckOptions options = options(loaded);
    try (Engine engine = Console.engine()) {
      if (!console.isText()) {
        byte[] records = engine.checkJson(loaded.files(), options);
        console.records(records);
        return errors(JsonTree.list(JsonTree.parse(new String(records, java.nio.charset.StandardCharsets.UTF_8)))) > 0
            ? PolicyCommand.FAILED : 0;
      }
      List<Diagnostic> diagnostics = engine.check(loaded.files(), options);
      return report(console, loaded.files().size(), diagnostics);
    }
  }

  private CheckOptions options(ProjectOptions.Project loaded) {
    CheckOptions options = CheckOptions.defaults().withTrustedFiles(loaded.trustedFiles());
    if (!policies.isEmpty()) {
      options = options.withPolicies(policies.toArray(String[]::new));
    }
    if (!requires.isEmpty()) {
      String[] trusted = project.trusted.stream().map(Sources::clean).toArray(String[]::new);
      for (String policy : requires) {
        options = options.withRequirement(Requirement.of(policy).withTrusted(trusted));
      }
    } else if (loaded.config().requirements().isPresent()) {
      for (ProjectConfig.Entry entry : loaded.config().requirements().get()) {
        options = options.withRequirement(entry.requirement());
      }
    }
    for (var lint : loaded.config().lints().entrySet()) {
      options = options.withLint(lint.getKey(), lint.getValue());
    }
    return options;
  }

  private static long errors(List<Object> records) {
    return records.stream().filter(r -> "error".equals(JsonTree.object(r).get("severity"))).count();
  }

  private static int report(Console console, int files, List<Diagnostic> diagnostics) {
    if (!diagnostics.isEmpty()) {
      console.out().print(console.diagnosticText().renderAll(diagnostics) + "\n\n");
    }
    int errors = (int) diagnostics.stream().filter(d -> d.severity().equals("error")).count();
    int warnings = diagnostics.size() - errors;
    String checked = "checked " + Counts.of(files, "file", "files") + ", ";
    if (errors > 0) {
      console.summary(Console.Outcome.FAILED, checked + Counts.problems(errors, warnings));
      return PolicyCommand.FAILED;
    }
    if (warnings > 0) {
      console.summary(Console.Outcome.WARNINGS, checked + Counts.problems(errors, warnings));
      return 0;
    }
    console.summary(Console.Outcome.CLEAN, checked + "no problems found");
    return 0;
  }
}
