package dev.svc.engine.kind;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kind files by name: the file a kind exports to, and the kind a source declares (bindings.md
 * §13.6).
 */
final class KindFiles {

  // Whole comment lines and white space, then `kind Name version` with `version` a whole word.
  private static final Pattern HEADER =
      Pattern.compile(
          "(?:\\s*//[^\\n]*\\n)*\\s*kind\\s+([A-Za-z_][A-Za-z0-9_]*)\\s+version(?![A-Za-z0-9_])",
          Pattern.UNICODE_CHARACTER_CLASS);

  private KindFiles() {}

  /**
   * {@code AlertRouting} as {@code alert_routing}, as {@code sigil export} names a kind's file: an
   * underscore before a capital that follows a lower case letter or a digit, and before the last
   * capital of an acronym that a lower case letter follows ({@code HTTPServer} as {@code
   * http_server}).
   */
  static String snakeCase(String name) {
    StringBuilder out = new StringBuilder(name.length() + 4);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (i > 0 && Character.isUpperCase(c)) {
        char before = name.charAt(i - 1);
        boolean lowerAfter = i + 1 < name.length() && Character.isLowerCase(name.charAt(i + 1));
        if (Character.isLowerCase(before)
            || (before >= '0' && before <= '9')
            || (Character.isUpperCase(before) && lowerAfter)) {
          out.append('_');
        }
      }
      out.append(Character.toLowerCase(c));
    }
    return out.toString();
  }

  /** The name of the kind {@code source} declares; empty when it doesn't start as a kind file. */
  static Optional<String> declaredName(String source) {
    Matcher header = HEADER.matcher(source);
    return header.lookingAt() ? Optional.of(header.group(1)) : Optional.empty();
  }
}
