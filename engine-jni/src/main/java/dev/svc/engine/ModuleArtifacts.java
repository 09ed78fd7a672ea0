package dev.svc.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The serialized native code of each loaded {@link EngineModule}, written once to a private file
 * that engine host processes map ({@link ProcessGuest}): a host loads its module in milliseconds
 * instead of compiling it. The files are deleted when the JVM exits.
 */
final class ModuleArtifacts {

  private static final Map<EngineModule, Path> FILES = new WeakHashMap<>();

  private ModuleArtifacts() {}

  /** The file holding {@code module}'s serialized code, written on first use. */
  static synchronized Path fileFor(EngineModule module) throws IOException {
    Path file = FILES.get(module);
    if (file == null) {
      file = Files.createTempFile(Directory.PATH, "engine-", ".cwasm");
      file.toFile().deleteOnExit();
      Files.write(file, module.precompile());
      FILES.put(module, file);
    }
    return file;
  }

  /** The private directory of the artifacts, made on first use. */
  private static final class Directory {
    static final Path PATH = create();

    private static Path create() {
      try {
        Path dir = Files.createTempDirectory("svc-engine-modules-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        dir.toFile().deleteOnExit();
        return dir;
      } catch (IOException e) {
        throw new UncheckedIOException("no private directory for serialized engine modules", e);
      }
    }
  }
}
