package dev.svc.cli.access;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;

/**
 * An {@code svc} executable for tests that run real shells: a script in its own directory that
 * starts this test run's classes, its temporary directory {@code $TMPDIR}.
 */
final class SvcLauncher {

  final Path bin;
  final Path home;
  final Path tmp;

  SvcLauncher(Path root) throws IOException {
    bin = Files.createDirectories(root.resolve("bin"));
    home = Files.createDirectories(root.resolve("home"));
    tmp = Files.createDirectories(root.resolve("tmp"));
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path script = bin.resolve("svc");
    Files.writeString(script, "#!/bin/sh\nexec '" + java + "' -XX:TieredStopAtLevel=1 -Xshare:auto"
        + " -Djava.io.tmpdir=\"$TMPDIR\" -cp '" + System.getProperty("java.class.path") + "' dev.svc.cli.Svc \"$@\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** The environment of a shell that finds this {@code svc} first on its PATH and talks to {@code port}. */
  Map<String, String> environment(int port) {
    Map<String, String> environment = new HashMap<>();
    environment.put("PATH", bin + ":/usr/local/bin:/usr/bin:/bin");
    environment.put("HOME", home.toString());
    environment.put("TMPDIR", tmp.toString());
    environment.put("TERM", "dumb");
    environment.put("SVC_MESH_HOSTNAME", "http://127.0.0.1");
    environment.put("SVC_MESH_PORT", Integer.toString(port));
    return environment;
  }

  /** Whether {@code program} is on the PATH; prints why a test is skipped when it isn't. */
  static boolean missing(String program) {
    if (onPath(program)) {
      return false;
    }
    System.out.println("SKIPPED: " + program + " is not on PATH (scripts/setup installs it)");
    return true;
  }

  /** Whether {@code program} is an executable in one of the PATH's directories. */
  static boolean onPath(String program) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(dir, program))) {
        return true;
      }
    }
    return false;
  }
}
