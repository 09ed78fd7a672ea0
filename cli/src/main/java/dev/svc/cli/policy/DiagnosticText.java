package dev.svc.cli.policy;

import dev.svc.engine.Diagnostic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Diagnostics in the text layout of tooling spec §2: a header, the source line quoted under a
 * gutter, carets under the problem, and the help.
 *
 * <p>The engine's Diagnostic record carries where a problem starts, not where it ends, so the
 * carets cover the token at the start: a name, a name with its call's parentheses, or a string
 * literal; one caret otherwise.
 */
final class DiagnosticText {

  private final Map<String, String> sources;
  private final PolicyColors theme;

  /**
   * @param sources the text of each file by the name the diagnostics use
   * @param theme how to colour
   */
  DiagnosticText(Map<String, String> sources, PolicyColors theme) {
    this.sources = sources;
    this.theme = theme;
  }

  /** Every diagnostic, joined by one blank line, without a final newline. */
  String renderAll(List<Diagnostic> diagnostics) {
    List<String> parts = new ArrayList<>();
    for (Diagnostic d : diagnostics) {
      parts.add(render(d));
    }
    return String.join("\n\n", parts);
  }

  /** One diagnostic, without a final newline. */
  String render(Diagnostic d) {
    StringBuilder out = new StringBuilder(header(d));
    String line = sourceLine(d);
    if (line == null) {
      d.help().ifPresent(help -> out.append('\n').append("  ").append(theme.info("= help:")).append(' ').append(help));
      return out.toString();
    }
    String number = Integer.toString(d.line());
    String pad = " ".repeat(number.length());
    out.append('\n').append(pad).append(" |");
    out.append('\n').append(number).append(" | ").append(line);
    out.append('\n').append(pad).append(" | ").append(lead(line, d.column()));
    String carets = "^".repeat(caretCount(line, d.column()));
    out.append(d.severity().equals("error") ? theme.fail(carets) : theme.warn(carets));
    d.help().ifPresent(help -> out.append('\n').append(pad).append(' ').append(theme.info("= help:")).append(' ').append(help));
    return out.toString();
  }

  private String header(Diagnostic d) {
    StringBuilder out = new StringBuilder();
    boolean positioned = d.line() > 0;
    if (d.file().isPresent()) {
      out.append(d.file().get());
      if (positioned) {
        out.append(':').append(d.line()).append(':').append(d.column());
      }
    } else if (positioned) {
      out.append(d.line()).append(':').append(d.column());
    }
    if (positioned && d.document().isPresent() && !pathMatches(d.file().orElse(""), d.document().get())) {
      out.append(" (").append(d.document().get()).append(')');
    }
    if (!out.isEmpty()) {
      out.append(": ");
    }
    out.append(theme.severity(d.severity())).append(": ").append(theme.bold(d.message()));
    d.lint().ifPresent(lint -> out.append(" [").append(lint).append(']'));
    return out.toString();
  }

  /** Whether {@code path} is where document {@code name} lives by its name (tooling spec §1.4). */
  static boolean pathMatches(String path, String name) {
    String expected = name.replace('.', '/') + ".sigil";
    String cleaned = path.startsWith("./") ? path.substring(2) : path;
    return cleaned.equals(expected) || cleaned.endsWith("/" + expected);
  }

  private String sourceLine(Diagnostic d) {
    String source = d.file().map(sources::get).orElse(null);
    if (source == null || d.line() < 1) {
      return null;
    }
    String[] lines = source.split("\r?\n", -1);
    return d.line() <= lines.length ? lines[d.line() - 1] : null;
  }

  // Tabs stay tabs so the carets line up under them; everything else before the column is a space.
  private static String lead(String line, int column) {
    StringBuilder out = new StringBuilder();
    int[] points = line.codePoints().toArray();
    for (int i = 0; i < Math.min(column - 1, points.length); i++) {
      out.append(points[i] == '\t' ? '\t' : ' ');
    }
    return out.toString();
  }

  private static int caretCount(String line, int column) {
    int[] points = line.codePoints().toArray();
    int start = column - 1;
    if (start < 0 || start >= points.length) {
      return 1;
    }
    int end = start;
    if (points[start] == '"') {
      end = start + 1;
      while (end < points.length && points[end] != '"') {
        end += points[end] == '\\' ? 2 : 1;
      }
      return Math.min(end + 1, points.length) - start;
    }
    while (end < points.length && (Character.isLetterOrDigit(points[end]) || points[end] == '_' || points[end] == '.')) {
      end++;
    }
    if (end == start) {
      return 1;
    }
    if (end < points.length && points[end] == '(') {
      int depth = 0;
      for (int i = end; i < points.length; i++) {
        depth += points[i] == '(' ? 1 : points[i] == ')' ? -1 : 0;
        if (depth == 0) {
          return i + 1 - start;
        }
      }
      return points.length - start;
    }
    return end - start;
  }
}
