package dev.svc.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Properties;

/**
 * Which build of svc is running: its version, when it was built, and the commit it was built from.
 *
 * <p>Maven writes these into {@code build-info.properties} and {@code build-commit.properties} when
 * it builds the jar. A value that the build could not know (no git checkout, say) reads {@code
 * unknown}.
 *
 * @param version the project version, e.g. {@code 0.1.0-SNAPSHOT}
 * @param date the build time, RFC 3339 in UTC
 * @param commit the full id of the commit that was built
 */
record BuildInfo(String version, String date, String commit) {

  static final String UNKNOWN = "unknown";
  private static final List<String> RESOURCES =
      List.of("build-info.properties", "build-commit.properties");

  /** The build information packaged with this jar. */
  static BuildInfo current() {
    Properties properties = new Properties();
    for (String resource : RESOURCES) {
      try (InputStream in = BuildInfo.class.getResourceAsStream(resource)) {
        if (in != null) {
          properties.load(in);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("reading " + resource, e);
      }
    }
    return of(properties);
  }

  /** The build information in {@code properties}; missing or unfilled values are {@code unknown}. */
  static BuildInfo of(Properties properties) {
    return new BuildInfo(
        value(properties, "version"), value(properties, "date"), value(properties, "commit"));
  }

  /** The three lines of {@code svc version} (spec §11.8), each ending in a newline. */
  String text() {
    return "Version: " + version + "\n" + "Date:    " + date + "\n" + "Commit:  " + commit + "\n";
  }

  private static String value(Properties properties, String key) {
    String value = properties.getProperty(key, "").strip();
    // An unfilled placeholder means the build had no value for it (e.g. built outside git).
    return value.isEmpty() || value.startsWith("${") ? UNKNOWN : value;
  }
}
