package dev.svc.cli.access;

import dev.svc.cli.console.Theme;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lays out the help's markdown for a terminal (access-server spec §11.9): headings as plain lines,
 * code blocks indented, tables as aligned columns, admonitions as labelled markers; bold headings
 * only when colour is allowed. Theme {@link Theme#MARKDOWN} skips this and prints the markdown.
 */
final class TerminalMarkdown {

  private static final Pattern ADMONITION = Pattern.compile("^> \\[!(NOTE|TIP|IMPORTANT|WARNING|CRITICAL)]$");
  private static final String BOLD = "\033[1m";
  private static final String RESET = "\033[0m";

  private TerminalMarkdown() {}

  static String render(String markdown, Theme theme, boolean colour) {
    if (theme == Theme.MARKDOWN) {
      return markdown;
    }
    List<String> out = new ArrayList<>();
    List<String[]> table = new ArrayList<>();
    boolean fenced = false;
    String label = null;
    for (String line : markdown.split("\n", -1)) {
      if (line.startsWith("```")) {
        fenced = !fenced;
        continue;
      }
      if (fenced) {
        out.add("  " + line);
        continue;
      }
      if (line.startsWith("|")) {
        if (!line.matches("\\|( *-+ *\\|)+")) {
          table.add(cells(line));
        }
        continue;
      }
      flush(table, out, colour);
      Matcher admonition = ADMONITION.matcher(line);
      if (admonition.matches()) {
        label = admonition.group(1).charAt(0) + admonition.group(1).substring(1).toLowerCase(Locale.ROOT);
        continue;
      }
      if (line.startsWith("> ")) {
        out.add((label == null ? "" : label + ": ") + inline(line.substring(2)));
        label = null;
        continue;
      }
      if (line.startsWith("#")) {
        String heading = line.replaceFirst("^#+ ", "");
        out.add(colour ? BOLD + heading + RESET : heading);
        continue;
      }
      out.add(inline(line));
    }
    flush(table, out, colour);
    return String.join("\n", out);
  }

  private static String[] cells(String row) {
    String inner = row.substring(1, row.length() - (row.endsWith("|") ? 1 : 0));
    String[] cells = inner.split("(?<!\\\\)\\|", -1);
    for (int i = 0; i < cells.length; i++) {
      cells[i] = inline(cells[i].strip().replace("\\|", "|"));
    }
    return cells;
  }

  private static void flush(List<String[]> table, List<String> out, boolean colour) {
    if (table.isEmpty()) {
      return;
    }
    int columns = table.stream().mapToInt(r -> r.length).max().orElse(0);
    int[] widths = new int[columns];
    for (String[] row : table) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (int r = 0; r < table.size(); r++) {
      StringBuilder line = new StringBuilder("  ");
      String[] row = table.get(r);
      for (int i = 0; i < row.length; i++) {
        boolean last = i == row.length - 1;
        line.append(last ? row[i] : row[i] + " ".repeat(widths[i] - row[i].length() + 2));
      }
      String text = line.toString().stripTrailing();
      out.add(r == 0 && colour ? BOLD + text + RESET : text);
    }
    table.clear();
  }

  private static String inline(String text) {
    return text.replace("`", "");
  }
}
