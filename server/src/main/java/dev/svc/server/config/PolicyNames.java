package dev.svc.server.config;

import java.util.regex.Pattern;

/**
 * The names policies are served under, in the API's paths and in {@code policies.install}: the
 * engine's name syntax, identifiers joined by dots ({@code access.main}), with {@code -} allowed after
 * a segment's first character ({@code refund-gate}), at most {@value #MAX_LENGTH} characters. Nothing
 * else ({@code /}, spaces, control characters, non-ASCII), so a name reads the same in a path, a log
 * line and a metric label.
 *
 * <p><b>Thread safety:</b> stateless and thread-safe.
 */
public final class PolicyNames {

  /** The most characters a policy name may have. */
  public static final int MAX_LENGTH = 128;

  /** What to tell someone whose name isn't one. */
  public static final String HELP = "name policies as the engine names them: identifiers joined by dots, such as"
      + " access.main; a `-` may follow a segment's first character, such as refund-gate; at most " + MAX_LENGTH
      + " characters";

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*(\\.[A-Za-z_][A-Za-z0-9_-]*)*");

  private PolicyNames() {}

  /**
   * Whether {@code name} is a policy name.
   *
   * @param name a name from a path or the configuration
   * @return true if policies may be served under it
   */
  public static boolean valid(String name) {
    return name.length() <= MAX_LENGTH && NAME.matcher(name).matches();
  }

  /**
   * {@code name} as a message may quote it: control characters escaped, cut after the longest name.
   *
   * @param name any text given as a name
   * @return the text to put between backticks
   */
  public static String printable(String name) {
    StringBuilder text = new StringBuilder();
    name.codePoints().limit(MAX_LENGTH).forEach(c -> {
      if (Character.isISOControl(c)) {
        text.append(String.format("\\u%04x", c));
      } else {
        text.appendCodePoint(c);
      }
    });
    return name.codePointCount(0, name.length()) > MAX_LENGTH ? text + "..." : text.toString();
  }
}
