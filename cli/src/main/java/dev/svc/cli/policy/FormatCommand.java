package dev.svc.cli.policy;

import dev.svc.engine.Diagnostic;
import dev.svc.engine.Engine;
import dev.svc.engine.EngineException;
import dev.svc.engine.FormatOptions;
import dev.svc.engine.SourceFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code svc policy fmt}: the canonical style (tooling spec §4). Prints one file's formatted source,
 * or a diff of several; {@code --check} lists the files that aren't formatted, {@code --write}
 * rewrites them. A file that doesn't parse is left alone and fails the run in every mode.
 */
@Command(name = "fmt", mixinStandardHelpOptions = true,
    description = "Format .sigil files in the canonical style: print, diff, check or rewrite them.")
final class FormatCommand implements Callable<Integer> {

  @Mixin RunGuard guard;

  @Parameters(paramLabel = "PATH", description = "A file, a directory (every .sigil file below it) or - for stdin; . when none.")
  List<String> paths = new ArrayList<>();

  @Option(names = {"-w", "--write"}, description = "Rewrite the files that aren't formatted, keeping their permissions.")
  boolean write;

  @Option(names = "--check", description = "List the files that aren't formatted; fail if there is any.")
  boolean check;

  @Option(names = {"-d", "--diff"}, description = "Print a unified diff of each file that would change.")
  boolean diff;

  /** What formatting one file gave. */
  private record Result(SourceFile file, String formatted, List<Diagnostic> diagnostics, boolean written) {

    boolean parses() {
      return diagnostics.isEmpty();
    }

    boolean isFormatted() {
      return parses() && formatted.equals(file.source());
    }
  }

  @Override
  public Integer call() {
    return guard.run(this::format);
  }

  private int format(Console console) {
    int modes = (write ? 1 : 0) + (check ? 1 : 0) + (diff ? 1 : 0);
    if (modes > 1) {
      throw new PolicyException("--write, --check and --diff can't be combined", "pick one of them");
    }
    if (write && paths.contains("-")) {
      throw new PolicyException("--write can't rewrite stdin", "name the files to rewrite, or leave out --write");
    }
    List<SourceFile> files = console.remember(Sources.read(console.workspace(), paths, Sources::isSigil));
    if (files.isEmpty()) {
      throw new PolicyException("no .sigil files found",
          "name the .sigil files or the directories that hold them; a directory contributes every .sigil file below it");
    }
    boolean single = modes == 0 && paths.size() == 1 && files.size() == 1
        && (paths.get(0).equals("-") || !Files.isDirectory(console.workspace().resolve(paths.get(0))));
    List<Result> results = new ArrayList<>();
    try (Engine engine = Console.engine()) {
      for (SourceFile file : files) {
        results.add(rewrite(console, format(engine, file)));
      }
    }
    boolean failed = results.stream().anyMatch(r -> !r.parses()) || (check && results.stream().anyMatch(r -> !r.isFormatted()));
    if (console.isText()) {
      text(console, results, single);
    } else {
      List<String> records = new ArrayList<>();
      for (Result result : results) {
        records.add(record(result, single, modes == 0 || diff));
      }
      console.records(RecordJson.list(records));
    }
    return failed ? PolicyCommand.FAILED : 0;
  }

  private static Result format(Engine engine, SourceFile file) {
    try {
      return new Result(file, engine.format(file.source(), FormatOptions.defaults().withPath(file.path())), List.of(), false);
    } catch (EngineException e) {
      if (e.diagnostics().isEmpty()) {
        throw e;
      }
      return new Result(file, file.source(), e.diagnostics(), false);
    }
  }

  private Result rewrite(Console console, Result result) {
    if (!write || !result.parses() || result.isFormatted()) {
      return result;
    }
    try {
      // Writing over the existing file keeps its permissions.
      Files.writeString(console.workspace().resolve(result.file().path()), result.formatted(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new PolicyException(result.file().path() + " couldn't be rewritten",
          "check that you may write the file").causedBy(String.valueOf(e.getMessage()));
    }
    return new Result(result.file(), result.formatted(), List.of(), true);
  }

  private static String record(Result result, boolean single, boolean diffs) {
    RecordJson record = new RecordJson().string("file", result.file().path()).bool("formatted", result.isFormatted());
    if (result.written()) {
      record.bool("written", true);
    }
    if (result.parses() && single) {
      record.string("source", result.formatted());
    } else if (result.parses() && diffs && !result.isFormatted()) {
      record.string("diff", diffOf(result));
    }
    if (!result.parses()) {
      record.raw("diagnostics", RecordJson.list(result.diagnostics().stream().map(RecordJson::diagnostic).toList()));
    }
    return record.end();
  }

  private static String diffOf(Result result) {
    String path = result.file().path();
    return UnifiedDiff.of(path + ".orig", path, result.file().source(), result.formatted());
  }

  private void text(Console console, List<Result> results, boolean single) {
    List<Diagnostic> problems = results.stream().flatMap(r -> r.diagnostics().stream()).toList();
    if (!problems.isEmpty()) {
      console.err().print(console.diagnosticText().renderAll(problems) + "\n\n");
    }
    long broken = results.stream().filter(r -> !r.parses()).count();
    long unformatted = results.stream().filter(r -> r.parses() && !r.isFormatted()).count();
    if (single) {
      results.stream().filter(Result::parses).forEach(r -> console.out().print(r.formatted()));
      return;
    }
    String files = Counts.of(results.size(), "file", "files");
    if (check) {
      results.stream().filter(r -> r.parses() && !r.isFormatted()).forEach(r -> console.out().println(r.file().path()));
      if (broken + unformatted == 0) {
        console.summary(Console.Outcome.CLEAN, "checked " + files + ", all formatted");
      } else {
        console.summary(Console.Outcome.FAILED, "checked " + files + ", " + notFormatted(unformatted, broken));
      }
    } else if (write) {
      results.stream().filter(Result::written).forEach(r -> console.out().println("rewrote " + r.file().path()));
      long written = results.stream().filter(Result::written).count();
      String message = "formatted " + files + ", rewrote " + written + (broken > 0 ? ", " + broken + " with syntax errors" : "");
      console.summary(broken > 0 ? Console.Outcome.FAILED : Console.Outcome.CLEAN, message);
    } else {
      results.stream().filter(r -> r.parses() && !r.isFormatted()).forEach(r -> console.out().print(diffOf(r)));
      console.out().println(unformatted + " of " + files + " would be reformatted");
    }
  }

  private static String notFormatted(long unformatted, long broken) {
    List<String> parts = new ArrayList<>();
    if (unformatted > 0) {
      parts.add(unformatted + " not formatted");
    }
    if (broken > 0) {
      parts.add(broken + " with syntax errors");
    }
    return String.join(" and ", parts);
  }
}
