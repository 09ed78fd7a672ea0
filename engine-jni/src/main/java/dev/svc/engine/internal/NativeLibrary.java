package dev.svc.engine.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Loads the JNI bridge and the wasmtime library it links against, once per JVM.
 *
 * <p>Where they come from, first match wins:
 *
 * <ol>
 *   <li>the directory named by the system property {@value #PATH_PROPERTY} or the environment
 *       variable {@value #PATH_ENV}, holding {@value #BRIDGE} and {@value #WASMTIME} (for packagers
 *       and debugging; loaded as they are);
 *   <li>otherwise the jar's {@code META-INF/native/<os>-<arch>/}: both files are extracted into one
 *       private directory {@code <workdir>/svc-native-<sha prefix>/} (owner-only permissions;
 *       {@code <workdir>} is {@value #WORKDIR_PROPERTY}, else {@code java.io.tmpdir}), each checked
 *       against {@code natives.sha256}. A directory that already verifies is reused; a partial
 *       extraction is deleted.
 * </ol>
 *
 * <p>The bridge is loaded by absolute path; its {@code RUNPATH=$ORIGIN} finds wasmtime beside it.
 * Then its version is compared with {@link Native#BRIDGE_VERSION}, and its load-time self-test of
 * the wasmtime library is consulted.
 *
 * <p><b>Thread safety:</b> thread-safe; the work happens once, in a holder class's initializer.
 */
public final class NativeLibrary {

  /** System property naming a directory that holds both libraries. */
  public static final String PATH_PROPERTY = "svc.native.path";

  /** Environment variable naming a directory that holds both libraries. */
  public static final String PATH_ENV = "SVC_NATIVE_PATH";

  /** System property naming where the private extraction directory is created. */
  public static final String WORKDIR_PROPERTY = "svc.native.workdir";

  /** The bridge's file name (the name it is linked and loaded as). */
  public static final String BRIDGE = "libsvc_wasmtime_jni.so";

  /** wasmtime's C API library, under the name the bridge was linked against. */
  public static final String WASMTIME = "_libwasmtime.so";

  static final String CHECKSUMS = "natives.sha256";
  static final List<String> SHIPPED_PLATFORMS = List.of("linux-x86_64");

  private static final String RESOURCE_ROOT = "/META-INF/native/";
  private static final Set<PosixFilePermission> OWNER_ONLY_DIR = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rwx------");

  private NativeLibrary() {}

  /**
   * Loads the natives if that has not happened yet; cheap after the first call.
   *
   * @throws LoadFailure when they can't be loaded (every call throws, with the same message)
   */
  public static void ensureLoaded() {
    LoadFailure failure = Holder.FAILURE;
    if (failure != null) {
      throw new LoadFailure(failure.message(), failure.help(), failure.getCause());
    }
  }

  /** The libraries could not be loaded. The cause is always an {@link UnsatisfiedLinkError}. */
  public static final class LoadFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String message;
    private final String help;

    LoadFailure(String message, String help, Throwable cause) {
      super(message + "\n  help: " + help, cause);
      this.message = message;
      this.help = help;
    }

    /** What failed, one sentence. */
    public String message() {
      return message;
    }

    /** What to do about it. */
    public String help() {
      return help;
    }
  }

  /**
   * The directory the bridge was loaded from, which also holds {@code svc-engine-host}.
   *
   * @throws LoadFailure when the natives can't be loaded
   */
  public static Path directory() {
    ensureLoaded();
    return directory;
  }

  private static volatile Path directory;

  private static final class Holder {
    static final LoadFailure FAILURE = load();
  }

  private static LoadFailure load() {
    String platform = platform(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
    try {
      Path bridge = locate(platform);
      System.load(bridge.toAbsolutePath().toString());
      directory = bridge.toAbsolutePath().getParent();
      return check(platform);
    } catch (Failed f) {
      return f.failure;
    } catch (UnsatisfiedLinkError e) {
      return failure(platform, "the native libraries could not be loaded: " + e.getMessage(), e);
    }
  }

  /** Version handshake and the bridge's self-test verdict, once the bridge is loaded. */
  private static LoadFailure check(String platform) {
    int bridgeVersion = Native.bridgeVersion();
    if (bridgeVersion != Native.BRIDGE_VERSION) {
      String message = "the native bridge is version " + bridgeVersion + ", and this library expects version "
          + Native.BRIDGE_VERSION;
      return new LoadFailure(message, overrideHelp("use the " + BRIDGE + " built with this library, or"),
          new UnsatisfiedLinkError(message));
    }
    String problem = Native.loadProblem();
    if (problem != null) {
      return new LoadFailure(problem, overrideHelp("put the " + WASMTIME
          + " of the wasmtime 49.0.0 wheel (scripts/setup extracts it) beside the bridge, or"),
          new UnsatisfiedLinkError(problem));
    }
    return null;
  }

  /** {@code <os>-<arch>} as the jar names its directories: {@code linux-x86_64}, {@code macos-aarch64}. */
  static String platform(String osName, String osArch) {
    String os = osName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    if (os.startsWith("linux")) {
      os = "linux";
    } else if (os.startsWith("mac") || os.startsWith("darwin") || os.startsWith("osx")) {
      os = "macos";
    } else if (os.startsWith("windows")) {
      os = "windows";
    }
    String arch = osArch.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "");
    switch (arch) {
      case "amd64":
      case "x8664":
      case "x86_64":
      case "em64t":
        arch = "x86_64";
        break;
      case "arm64":
      case "aarch64":
        arch = "aarch64";
        break;
      case "x86":
      case "i386":
      case "i486":
      case "i586":
      case "i686":
        arch = "x86";
        break;
      default:
        break;
    }
    return os + "-" + arch;
  }

  /** The bridge file to load: from the override directory, or extracted from the jar. */
  private static Path locate(String platform) throws Failed {
    String override = System.getProperty(PATH_PROPERTY);
    String source = "-D" + PATH_PROPERTY;
    if (override == null || override.isBlank()) {
      override = System.getenv(PATH_ENV);
      source = PATH_ENV;
    }
    if (override != null && !override.isBlank()) {
      Path dir = Paths.get(override);
      for (String name : List.of(BRIDGE, WASMTIME)) {
        if (!Files.isRegularFile(dir.resolve(name))) {
          throw new Failed(new LoadFailure(
              source + " names " + dir + ", which holds no " + name + " (this JVM runs on " + platform + ")",
              "point " + source + " at a directory holding both " + BRIDGE + " and " + WASMTIME
                  + ", or unset it to use the libraries inside the jar",
              new UnsatisfiedLinkError("no " + name + " in " + dir)));
        }
      }
      return dir.resolve(BRIDGE);
    }
    return extract(platform);
  }

  private static Path extract(String platform) throws Failed {
    String base = RESOURCE_ROOT + platform + "/";
    Map<String, String> expected;
    byte[] listing;
    try (InputStream in = NativeLibrary.class.getResourceAsStream(base + CHECKSUMS)) {
      if (in == null) {
        String message = "this library ships native code for " + String.join(", ", SHIPPED_PLATFORMS)
            + " only, and this JVM runs on " + platform;
        throw new Failed(new LoadFailure(message,
            "run on " + String.join(" or ", SHIPPED_PLATFORMS) + ", or build " + BRIDGE + " for " + platform
                + " and point -D" + PATH_PROPERTY + " (or " + PATH_ENV + ") at the directory holding it and "
                + WASMTIME,
            new UnsatisfiedLinkError(message)));
      }
      listing = in.readAllBytes();
      expected = parseChecksums(listing);
    } catch (IOException e) {
      throw new Failed(failure(platform, "the jar's " + CHECKSUMS + " could not be read: " + e.getMessage(), e));
    }
    for (String name : List.of(BRIDGE, WASMTIME)) {
      if (!expected.containsKey(name)) {
        throw new Failed(failure(platform, "the jar's " + CHECKSUMS + " for " + platform + " lists no " + name,
            null));
      }
    }
    Path workdir = Paths.get(System.getProperty(WORKDIR_PROPERTY, System.getProperty("java.io.tmpdir")));
    Path target = workdir.resolve("svc-native-" + sha256(listing).substring(0, 16));
    if (verified(target, expected)) {
      return target.resolve(BRIDGE);
    }
    Path staging = null;
    try {
      Files.createDirectories(workdir);
      staging = Files.createTempDirectory(workdir, target.getFileName() + "-",
          PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIR));
      for (Map.Entry<String, String> file : expected.entrySet()) {
        copyVerified(base + file.getKey(), staging.resolve(file.getKey()), file.getValue());
      }
      try {
        Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
        staging = null;
        return target.resolve(BRIDGE);
      } catch (IOException e) {
        // Another JVM won the race, or a stale or foreign directory is in the way.
        if (verified(target, expected)) {
          return target.resolve(BRIDGE);
        }
        // Use our own verified copy where it is; it goes away when this JVM exits.
        Path kept = staging;
        staging = null;
        deleteOnExit(kept);
        return kept.resolve(BRIDGE);
      }
    } catch (IOException | RuntimeException e) {
      throw new Failed(failure(platform, "the native libraries could not be extracted into " + workdir + ": "
          + e.getMessage(), e));
    } finally {
      if (staging != null) {
        deleteTree(staging);
      }
    }
  }

  /** Parses {@code <sha256>  <file>} lines. */
  static Map<String, String> parseChecksums(byte[] listing) throws IOException {
    Map<String, String> sums = new LinkedHashMap<>();
    try (BufferedReader reader = new BufferedReader(
        new InputStreamReader(new java.io.ByteArrayInputStream(listing), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        String trimmed = line.strip();
        if (trimmed.isEmpty()) {
          continue;
        }
        String[] parts = trimmed.split("\\s+", 2);
        if (parts.length != 2 || !parts[0].matches("[0-9a-fA-F]{64}")) {
          throw new IOException("malformed line: " + trimmed);
        }
        String name = parts[1].startsWith("*") ? parts[1].substring(1) : parts[1];
        if (name.contains("/") || name.contains("\\") || name.startsWith(".")) {
          throw new IOException("file name outside the native directory: " + name);
        }
        sums.put(name, parts[0].toLowerCase(Locale.ROOT));
      }
    }
    return sums;
  }

  /** True when dir is ours (owner-only, not a link) and every file matches its checksum. */
  private static boolean verified(Path dir, Map<String, String> expected) {
    try {
      if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
        return false;
      }
      PosixFileAttributes attributes = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!attributes.owner().getName().equals(System.getProperty("user.name"))
          || !attributes.permissions().equals(OWNER_ONLY_DIR)) {
        return false;
      }
      for (Map.Entry<String, String> file : expected.entrySet()) {
        Path path = dir.resolve(file.getKey());
        if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
          return false;
        }
        try (InputStream in = Files.newInputStream(path)) {
          if (!sha256(in).equals(file.getValue())) {
            return false;
          }
        }
      }
      return true;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  private static void copyVerified(String resource, Path target, String expectedSha) throws IOException {
    MessageDigest digest = newDigest();
    try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("the jar has no " + resource);
      }
      try (OutputStream out = Files.newOutputStream(target)) {
        byte[] buffer = new byte[1 << 16];
        int n;
        while ((n = in.read(buffer)) > 0) {
          digest.update(buffer, 0, n);
          out.write(buffer, 0, n);
        }
      }
    }
    String actual = HexFormat.of().formatHex(digest.digest());
    if (!actual.equals(expectedSha)) {
      throw new IOException(resource + " has sha256 " + actual + ", and " + CHECKSUMS + " says " + expectedSha);
    }
    Files.setPosixFilePermissions(target, OWNER_ONLY_FILE);
  }

  private static LoadFailure failure(String platform, String message, Throwable cause) {
    UnsatisfiedLinkError link = cause instanceof UnsatisfiedLinkError
        ? (UnsatisfiedLinkError) cause
        : new UnsatisfiedLinkError(message);
    if (link != cause && cause != null) {
      link.initCause(cause);
    }
    return new LoadFailure(message + " (this JVM runs on " + platform + "; this library ships "
        + String.join(", ", SHIPPED_PLATFORMS) + ")", overrideHelp(null), link);
  }

  private static String overrideHelp(String first) {
    String override = "point -D" + PATH_PROPERTY + " (or " + PATH_ENV + ") at a directory holding " + BRIDGE
        + " and " + WASMTIME + ", or set -D" + WORKDIR_PROPERTY + " to a writable directory for the extracted copies";
    return first == null ? override : first + " " + override;
  }

  private static String sha256(byte[] bytes) {
    return HexFormat.of().formatHex(newDigest().digest(bytes));
  }

  private static String sha256(InputStream in) throws IOException {
    MessageDigest digest = newDigest();
    byte[] buffer = new byte[1 << 16];
    int n;
    while ((n = in.read(buffer)) > 0) {
      digest.update(buffer, 0, n);
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  private static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException | RuntimeException e) {
      // Best effort: a leftover staging directory is never reused (its name is random).
    }
  }

  private static void deleteOnExit(Path dir) {
    dir.toFile().deleteOnExit();
    try (Stream<Path> paths = Files.list(dir)) {
      paths.forEach(path -> path.toFile().deleteOnExit());
    } catch (IOException e) {
      // Best effort.
    }
  }

  /** Carries a prepared failure out of the helpers. */
  private static final class Failed extends Exception {
    private static final long serialVersionUID = 1L;
    final transient LoadFailure failure;

    Failed(LoadFailure failure) {
      super(failure.message(), null, false, false);
      this.failure = failure;
    }
  }
}
