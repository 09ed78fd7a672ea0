package dev.svc.engine;

import dev.svc.engine.internal.HostProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The serialized native code of each loaded {@link EngineModule}, written once to a private file
 * in the hosts' private directory ({@link HostProcess#workDirectory()}), which engine host processes
 * map ({@link ProcessGuest}): a host loads its module in milliseconds instead of compiling it. The
 * files are deleted when the JVM exits.
 */
final class ModuleArtifacts {

  private static final Map<EngineModule, Path> FILES = new WeakHashMap<>();

  private ModuleArtifacts() {}

  /** The file holding {@code module}'s serialized code, written on first use. */
  static synchronized Path fileFor(EngineModule module) throws IOException {
    Path file = FILES.get(module);
    if (file == null) {
      file = Files.createTempFile(HostProcess.workDirectory(), "engine-", ".cwasm");
      file.toFile().deleteOnExit();
      Files.write(file, module.precompile());
      FILES.put(module, file);
    }
    return file;
  }
}
