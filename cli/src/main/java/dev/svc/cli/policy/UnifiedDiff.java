package dev.svc.cli.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * A unified diff of two texts by lines, three lines of context per hunk, as {@code diff -u} prints
 * it. The longest common subsequence is exact up to a bound on the table; past it the whole text is
 * one hunk, still a correct (if long) diff.
 */
final class UnifiedDiff {

  private static final int CONTEXT = 3;
  private static final long MAX_CELLS = 16_000_000L;

  private UnifiedDiff() {}

  private record Line(char op, String text, int oldLine, int newLine) {}

  /** The diff of {@code before} (labelled {@code from}) and {@code after} (labelled {@code to}); empty when equal. */
  static String of(String from, String to, String before, String after) {
    if (before.equals(after)) {
      return "";
    }
    List<Line> lines = edits(split(before), split(after));
    StringBuilder out = new StringBuilder("--- ").append(from).append("\n+++ ").append(to).append('\n');
    int i = 0;
    while (i < lines.size()) {
      if (lines.get(i).op() == ' ') {
        i++;
        continue;
      }
      int last = i;
      for (int k = i + 1; k < lines.size(); k++) {
        if (lines.get(k).op() != ' ') {
          if (k - last > 2 * CONTEXT) {
            break;
          }
          last = k;
        }
      }
      int end = Math.min(lines.size(), last + CONTEXT + 1);
      hunk(out, lines.subList(Math.max(0, i - CONTEXT), end));
      i = end;
    }
    return out.toString();
  }

  private static void hunk(StringBuilder out, List<Line> hunk) {
    int oldStart = 0;
    int newStart = 0;
    int oldCount = 0;
    int newCount = 0;
    for (Line line : hunk) {
      if (line.op() != '+') {
        oldStart = oldStart == 0 ? line.oldLine() : oldStart;
        oldCount++;
      }
      if (line.op() != '-') {
        newStart = newStart == 0 ? line.newLine() : newStart;
        newCount++;
      }
    }
    out.append("@@ -").append(range(oldStart, oldCount, hunk.get(0).oldLine()))
        .append(" +").append(range(newStart, newCount, hunk.get(0).newLine())).append(" @@\n");
    for (Line line : hunk) {
      out.append(line.op()).append(line.text()).append('\n');
    }
  }

  // An empty side names the line before it, as diff -u does.
  private static String range(int start, int count, int firstSeen) {
    if (count == 0) {
      return Math.max(0, firstSeen - 1) + ",0";
    }
    return count == 1 ? Integer.toString(start) : start + "," + count;
  }

  private static List<String> split(String text) {
    List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1);
    }
    return lines;
  }

  private static List<Line> edits(List<String> a, List<String> b) {
    List<Line> out = new ArrayList<>();
    if ((long) a.size() * b.size() > MAX_CELLS) {
      for (int i = 0; i < a.size(); i++) {
        out.add(new Line('-', a.get(i), i + 1, 1));
      }
      for (int j = 0; j < b.size(); j++) {
        out.add(new Line('+', b.get(j), a.size() + 1, j + 1));
      }
      return out;
    }
    int[][] common = new int[a.size() + 1][b.size() + 1];
    for (int i = a.size() - 1; i >= 0; i--) {
      for (int j = b.size() - 1; j >= 0; j--) {
        common[i][j] = a.get(i).equals(b.get(j)) ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
      }
    }
    int i = 0;
    int j = 0;
    while (i < a.size() || j < b.size()) {
      if (i < a.size() && j < b.size() && a.get(i).equals(b.get(j))) {
        out.add(new Line(' ', a.get(i), i + 1, j + 1));
        i++;
        j++;
      } else if (i < a.size() && (j == b.size() || common[i + 1][j] >= common[i][j + 1])) {
        out.add(new Line('-', a.get(i), i + 1, j + 1));
        i++;
      } else {
        out.add(new Line('+', b.get(j), i + 1, j + 1));
        j++;
      }
    }
    return out;
  }
}
