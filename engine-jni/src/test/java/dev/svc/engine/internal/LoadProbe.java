package dev.svc.engine.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Loads the natives in a fresh JVM and reports what happened, for {@link NativeLibraryLoadTest}
 * (the loader runs once per JVM, so each scenario needs its own process). Prints
 * {@code loaded: <path of the bridge>} and exits 0, or prints the failure and exits 2.
 */
final class LoadProbe {

  private LoadProbe() {}

  public static void main(String[] args) throws IOException {
    try {
      NativeLibrary.ensureLoaded();
    } catch (NativeLibrary.LoadFailure e) {
      System.out.println("failure: " + e.message());
      System.out.println("help: " + e.help());
      System.out.println("cause: " + e.getCause().getClass().getName());
      System.exit(2);
    }
    for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
      if (line.endsWith("/" + NativeLibrary.BRIDGE)) {
        System.out.println("loaded: " + line.substring(line.indexOf('/')));
        return;
      }
    }
    System.out.println("loaded: (not in /proc/self/maps)");
  }
}
