package dev.svc.cli.policy;

/**
 * JSON as the reference command line prints it (Go's {@code encoding/json} encoder with a two-space
 * indent, tooling spec §1.2): the engine's compact records re-indented without touching a byte of
 * their strings or numbers, and strings of the command's own records escaped the Go way.
 */
final class GoJson {

  private GoJson() {}

  /**
   * {@code compact} indented by two spaces per level, {@code "key": value}, empty lists and objects
   * kept as {@code []} and {@code {}}, and a final newline, as Go's {@code Encoder.SetIndent("", "  ")}
   * prints it.
   */
  static String indent(String compact) {
    StringBuilder out = new StringBuilder(compact.length() * 2);
    int depth = 0;
    for (int i = 0; i < compact.length(); i++) {
      char c = compact.charAt(i);
      switch (c) {
        case '"' -> i = copyString(compact, i, out);
        case '{', '[' -> {
          int next = skipSpace(compact, i + 1);
          if (next < compact.length() && compact.charAt(next) == (c == '{' ? '}' : ']')) {
            out.append(c).append(compact.charAt(next));
            i = next;
          } else {
            out.append(c);
            newline(out, ++depth);
          }
        }
        case '}', ']' -> {
          newline(out, --depth);
          out.append(c);
        }
        case ',' -> {
          out.append(',');
          newline(out, depth);
        }
        case ':' -> out.append(": ");
        case ' ', '\t', '\n', '\r' -> { }
        default -> out.append(c);
      }
    }
    return out.append('\n').toString();
  }

  /** {@code text} as a JSON string literal, escaped as Go's encoder and the engine escape it. */
  static String quote(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '<', '>', '&', '\u2028', '\u2029' -> out.append(String.format("\\u%04x", (int) c));
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  private static int copyString(String json, int start, StringBuilder out) {
    int i = start + 1;
    while (i < json.length() && json.charAt(i) != '"') {
      i += json.charAt(i) == '\\' ? 2 : 1;
    }
    out.append(json, start, Math.min(i + 1, json.length()));
    return i;
  }

  private static int skipSpace(String json, int from) {
    int i = from;
    while (i < json.length() && Character.isWhitespace(json.charAt(i))) {
      i++;
    }
    return i;
  }

  private static void newline(StringBuilder out, int depth) {
    out.append('\n').append("  ".repeat(depth));
  }
}
