package dev.svc.engine.internal;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Where compiled engine modules are kept between JVM starts, so the bundled module loads in
 * milliseconds instead of being compiled again.
 *
 * <p>The directory is {@code svc.cache.dir} (system property), else {@code SVC_CACHE_DIR}, else
 * {@code $XDG_CACHE_HOME/svc}, else {@code ~/.cache/svc}; modules go to {@code modules/} below it,
 * created owner-only because its files are native code the JVM will run. A file is named by the
 * module's sha256, the bridge's version and the configuration; wasmtime itself refuses an artifact
 * of another wasmtime version or configuration, and such a file is simply replaced.
 */
public final class ModuleCache {

  /** System property naming the cache directory. */
  public static final String DIR_PROPERTY = "svc.cache.dir";
  /** Environment variable naming the cache directory. */
  public static final String DIR_ENV = "SVC_CACHE_DIR";

  private ModuleCache() {}

  /** The cache file for {@code wasm} compiled with {@code configKey}, or empty with no usable home. */
  public static Optional<Path> fileFor(byte[] wasm, String configKey) {
    return directory()
        .map(
            dir ->
                dir.resolve("modules")
                    .resolve(
                        "engine-" + sha256(wasm).substring(0, 32) + "-bridge" + Native.BRIDGE_VERSION
                            + "-" + configKey + ".cwasm"));
  }

  /**
   * Writes {@code artifact} to {@code file} atomically: readers see the old file or the whole new
   * one, never a partial write (a mapped module must not change under its user).
   */
  public static void store(Path file, byte[] artifact) throws IOException {
    Path dir = file.getParent();
    Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path temp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
    try {
      Files.write(temp, artifact);
      try {
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  private static Optional<Path> directory() {
    String configured = System.getProperty(DIR_PROPERTY, System.getenv(DIR_ENV));
    if (configured != null && !configured.isBlank()) {
      return Optional.of(Path.of(configured));
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    if (xdg != null && !xdg.isBlank()) {
      return Optional.of(Path.of(xdg, "svc"));
    }
    String home = System.getProperty("user.home");
    return home == null || home.isBlank() ? Optional.empty() : Optional.of(Path.of(home, ".cache", "svc"));
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM provides SHA-256", e);
    }
  }
}
