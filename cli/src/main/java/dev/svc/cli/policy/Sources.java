package dev.svc.cli.policy;

import dev.svc.engine.SourceFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The files the path arguments of a policy command name (tooling spec §1.3): a file as it is, a
 * directory as every matching file below it (hidden entries skipped, links followed, each directory
 * walked once), {@code -} as stdin named {@code <stdin>}; each file named by its cleaned path with
 * forward slashes and read once however it was reached.
 */
final class Sources {

  /** The name stdin's text goes by. */
  static final String STDIN = "<stdin>";

  private final Workspace workspace;
  private final Predicate<String> wanted;
  private final Set<Path> seenFiles = new HashSet<>();
  private final Set<Path> seenDirectories = new HashSet<>();
  private final List<SourceFile> files = new ArrayList<>();

  private Sources(Workspace workspace, Predicate<String> wanted) {
    this.workspace = workspace;
    this.wanted = wanted;
  }

  /** Files of a directory that are Sigil sources. */
  static boolean isSigil(String name) {
    return name.endsWith(".sigil");
  }

  /** Files of a directory that are Sigil test files. */
  static boolean isTestFile(String name) {
    return name.endsWith("_test.yaml") || name.endsWith("_test.yml");
  }

  /**
   * Every file {@code args} name, in walk order; no arguments means {@code .}.
   *
   * @param wanted which file names a directory contributes
   * @throws PolicyException naming the path that couldn't be read
   */
  static List<SourceFile> read(Workspace workspace, List<String> args, Predicate<String> wanted) {
    Sources sources = new Sources(workspace, wanted);
    for (String arg : args.isEmpty() ? List.of(".") : args) {
      sources.argument(arg);
    }
    return List.copyOf(sources.files);
  }

  /** The cleaned, forward-slash name of {@code path} as written (Go's {@code filepath.Clean}). */
  static String clean(String path) {
    String cleaned = Path.of(path).normalize().toString().replace('\\', '/');
    return cleaned.isEmpty() ? "." : cleaned;
  }

  private void argument(String arg) {
    if (arg.equals("-")) {
      files.add(SourceFile.of(STDIN, readStdin(workspace.stdin())));
      return;
    }
    // Named and opened by its cleaned path, as the reference does: a/../b.sigil is b.sigil.
    String name = clean(arg);
    Path path = workspace.resolve(name);
    if (Files.isDirectory(path)) {
      directory(name, path);
    } else {
      file(name, path);
    }
  }

  private void directory(String name, Path path) {
    Path real = realPath(name, path);
    if (!seenDirectories.add(real)) {
      return;
    }
    TreeMap<String, Path> matching = new TreeMap<>();
    TreeMap<String, Path> directories = new TreeMap<>();
    try (Stream<Path> entries = Files.list(path)) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        String entryName = entry.getFileName().toString();
        if (entryName.startsWith(".")) {
          continue;
        }
        String child = name.equals(".") ? entryName : name + "/" + entryName;
        if (Files.isDirectory(entry)) {
          directories.put(entryName, entry);
        } else if (wanted.test(entryName)) {
          matching.put(child, entry);
        }
      }
    } catch (IOException e) {
      throw unreadable(name, e);
    }
    matching.forEach(this::file);
    directories.forEach((entryName, entry) -> directory(name.equals(".") ? entryName : name + "/" + entryName, entry));
  }

  private void file(String name, Path path) {
    Path real = realPath(name, path);
    if (!seenFiles.add(real)) {
      return;
    }
    try {
      files.add(SourceFile.of(name, Files.readString(path, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw unreadable(name, e);
    }
  }

  private static Path realPath(String name, Path path) {
    try {
      return path.toRealPath();
    } catch (IOException e) {
      throw unreadable(name, e);
    }
  }

  /** All of stdin as text. */
  static String readStdin(InputStream stdin) {
    try {
      return new String(stdin.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new PolicyException("stdin couldn't be read", "check what is piped into the command").causedBy(e.toString());
    }
  }

  /** The failure of reading {@code name}, with the reason as the system gave it. */
  static PolicyException unreadable(String name, IOException e) {
    String reason;
    if (e instanceof NoSuchFileException) {
      reason = "no such file or directory";
    } else if (e instanceof AccessDeniedException) {
      reason = "permission denied";
    } else if (e.getMessage() != null && e.getMessage().contains("Is a directory")) {
      reason = "is a directory";
    } else {
      reason = String.valueOf(e.getMessage());
    }
    return new PolicyException(name + " couldn't be read",
        "check the path: every argument is a file, a directory, or - for stdin, and must be readable")
        .causedBy(name + ": " + reason);
  }
}
