package dev.svc.cli.policy;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The records as YAML, laid out as the reference command line's YAML encoder (go-yaml v3, indent 2)
 * lays them out: block style, fields in record order, a sequence under a key indented by two,
 * strings plain where YAML reads them back as the same string, single-quoted where only indicator
 * characters get in the way, double-quoted where they would read as another type or hold control
 * characters, and literal blocks for text of several lines.
 */
final class Yaml {

  // Plain scalars YAML 1.1 or 1.2 would read as null, a boolean or a number: these must be quoted.
  private static final Pattern NOT_A_STRING = Pattern.compile(
      "~|null|Null|NULL|true|True|TRUE|false|False|FALSE|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF"
          + "|[-+]?(0|[1-9][0-9_]*)|0x[0-9a-fA-F_]+|0o?[0-7_]+|0b[01_]+"
          + "|[-+]?(\\.[0-9]+|[0-9][0-9_]*(\\.[0-9_]*)?)([eE][-+]?[0-9]+)?"
          + "|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\\.[0-9_]*)?");

  private Yaml() {}

  /** The YAML document of the JSON text {@code json}, ending with a newline. */
  static String fromJson(String json) {
    StringBuilder out = new StringBuilder();
    Object value = JsonTree.parse(json);
    if (isNested(value)) {
      block(value, 0, out);
    } else {
      out.append(inline(value, 0)).append('\n');
    }
    return out.toString();
  }

  private static boolean isNested(Object value) {
    return (value instanceof Map<?, ?> m && !m.isEmpty()) || (value instanceof List<?> l && !l.isEmpty());
  }

  // A non-empty map or list, starting on the current line (already indented), lines after at indent.
  private static void block(Object value, int indent, StringBuilder out) {
    boolean first = true;
    if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!first) {
          out.append(" ".repeat(indent));
        }
        first = false;
        out.append(scalar((String) entry.getKey(), indent)).append(':');
        Object item = entry.getValue();
        if (isNested(item)) {
          out.append('\n').append(" ".repeat(indent + 2));
          block(item, indent + 2, out);
        } else {
          out.append(' ').append(inline(item, indent + 2)).append('\n');
        }
      }
      return;
    }
    for (Object item : (List<?>) value) {
      if (!first) {
        out.append(" ".repeat(indent));
      }
      first = false;
      out.append("- ");
      if (isNested(item)) {
        block(item, indent + 2, out);
      } else {
        out.append(inline(item, indent + 2)).append('\n');
      }
    }
  }

  private static String inline(Object value, int indent) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Map<?, ?>) {
      return "{}";
    }
    if (value instanceof List<?>) {
      return "[]";
    }
    if (value instanceof String s) {
      return scalar(s, indent);
    }
    return JsonTree.text(value);
  }

  /** One string: plain, quoted, or a literal block whose lines sit at {@code indent}. */
  static String scalar(String s, int indent) {
    if (s.isEmpty() || NOT_A_STRING.matcher(s).matches()) {
      return doubleQuoted(s);
    }
    boolean special = s.codePoints().anyMatch(c -> c != '\n' && (c < 0x20 || c == 0x7f || c == 0xfeff));
    if (special) {
      return doubleQuoted(s);
    }
    if (s.indexOf('\n') >= 0) {
      return literal(s, indent);
    }
    return plainAllowed(s) ? s : "'" + s.replace("'", "''") + "'";
  }

  private static boolean plainAllowed(String s) {
    if (s.startsWith(" ") || s.endsWith(" ") || s.startsWith("---") || s.startsWith("...")) {
      return false;
    }
    char first = s.charAt(0);
    if ("#,[]{}&*!|>'\"%@`".indexOf(first) >= 0) {
      return false;
    }
    if ("-?:".indexOf(first) >= 0 && (s.length() == 1 || s.charAt(1) == ' ')) {
      return false;
    }
    return !(s.contains(": ") || s.contains(" #") || s.endsWith(":"));
  }

  // A literal block keeps the text as is; a space at a line's end or the text's start needs quotes.
  private static String literal(String s, int indent) {
    if (s.startsWith(" ") || s.contains(" \n") || s.endsWith(" ")) {
      return doubleQuoted(s);
    }
    String body = s;
    String chomp = "-";
    if (body.endsWith("\n")) {
      body = body.substring(0, body.length() - 1);
      chomp = body.endsWith("\n") ? "+" : "";
    }
    StringBuilder out = new StringBuilder("|").append(chomp);
    for (String line : body.split("\n", -1)) {
      out.append('\n');
      if (!line.isEmpty()) {
        out.append(" ".repeat(indent)).append(line);
      }
    }
    return out.toString();
  }

  private static String doubleQuoted(String s) {
    StringBuilder out = new StringBuilder("\"");
    s.codePoints().forEach(c -> {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        case '\r' -> out.append("\\r");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            out.append(String.format("\\x%02X", c));
          } else if (c == 0xfeff) {
            out.append("\\uFEFF");
          } else {
            out.appendCodePoint(c);
          }
        }
      }
    });
    return out.append('"').toString();
  }
}
