package dev.svc.cli.policy;

import dev.svc.engine.SourceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The options every command that loads a bundle shares: the paths, extra kind files, trusted
 * sources and the configuration file (tooling spec §3.2, §3.5).
 */
final class ProjectOptions {

  @Parameters(paramLabel = "PATH", description = "A file, a directory (every .sigil file below it) or - for stdin; . when none.")
  List<String> paths = new ArrayList<>();

  @Option(names = {"-k", "--kind"}, paramLabel = "<file>", description = "A kind file to load with the policies (repeatable).")
  List<String> kinds = new ArrayList<>();

  @Option(names = "--trusted", paramLabel = "<path>",
      description = "A file or directory read as the trusted source of required policies (repeatable).")
  List<String> trusted = new ArrayList<>();

  @Option(names = "--config", paramLabel = "<file>",
      description = "The configuration file; the nearest sigil.yaml or sigil.json at or above . when omitted.")
  String config;

  /**
   * What the command reads.
   *
   * @param config the configuration file's settings
   * @param files kind files, then the files the paths name, each once
   * @param trustedFiles the trusted sources: {@code --trusted} paths and the configuration's trusted paths
   * @param fromPaths how many of the files the paths named (the rest are kind files)
   */
  record Project(ProjectConfig config, List<SourceFile> files, List<SourceFile> trustedFiles, int fromPaths) {}

  /**
   * Reads the configuration, the kind files, the paths (keeping the files {@code wanted} accepts from
   * directories) and the trusted sources.
   *
   * @throws PolicyException if a file can't be read or the configuration is wrong
   */
  Project load(Console console, Predicate<String> wanted) {
    Workspace workspace = console.workspace();
    ProjectConfig settings = ProjectConfig.load(workspace, Optional.ofNullable(config));
    Map<String, SourceFile> files = new LinkedHashMap<>();
    for (String kind : kinds) {
      add(files, Sources.read(workspace, List.of(kind), Sources::isSigil));
    }
    for (String kind : settings.kinds()) {
      try {
        files.putIfAbsent(kind, SourceFile.of(kind, Files.readString(workspace.resolve(kind))));
      } catch (IOException e) {
        throw new PolicyException(settings.file().orElse("") + ": kind file " + kind + " couldn't be read",
            "fix the path under kinds:; it is relative to the configuration file").causedBy(
                Sources.unreadable(kind, e).causes().get(0));
      }
    }
    List<String> trustedPaths = new ArrayList<>(trusted);
    settings.requirements().ifPresent(entries -> entries.forEach(e -> trustedPaths.addAll(e.requirement().trusted())));
    Map<String, SourceFile> trustedFiles = new LinkedHashMap<>();
    if (!trustedPaths.isEmpty()) {
      add(trustedFiles, Sources.read(workspace, trustedPaths, Sources::isSigil));
    }
    int fromPaths = 0;
    for (SourceFile file : Sources.read(workspace, paths, wanted)) {
      if (!trustedFiles.containsKey(file.path())) {
        files.putIfAbsent(file.path(), file);
        fromPaths++;
      }
    }
    List<SourceFile> all = console.remember(List.copyOf(files.values()));
    return new Project(settings, all, console.remember(List.copyOf(trustedFiles.values())), fromPaths);
  }

  private static void add(Map<String, SourceFile> into, List<SourceFile> files) {
    files.forEach(f -> into.putIfAbsent(f.path(), f));
  }
}
