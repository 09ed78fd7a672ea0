package dev.svc.cli.access;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Replaces the value of one key in a YAML text in place, when that value is a plain scalar on the
 * key's line: every other byte of the file, comments included, stays as it was (deviation D26). For
 * anything else (the key is absent, the value quoted, a block or on another line) it declines, and
 * the caller rewrites the document instead.
 */
final class YamlScalarEdit {

  private static final YAMLFactory FACTORY = new YAMLFactory();

  private YamlScalarEdit() {}

  /**
   * The text with {@code dottedKey}'s value replaced by {@code rendered}.
   *
   * @param text the YAML document
   * @param dottedKey the key, such as {@code mesh.port}, matched in any case, nested or written dotted
   * @param rendered the new value as YAML, one line
   * @return the new text, or empty when the value can't be replaced in place
   */
  static Optional<String> replace(String text, String dottedKey, String rendered) {
    Optional<int[]> where = locate(text, dottedKey.toLowerCase(Locale.ROOT));
    if (where.isEmpty() || rendered.contains("\n")) {
      return Optional.empty();
    }
    List<String> lines = text.lines().toList();
    int lineIndex = where.get()[0] - 1;
    int start = where.get()[1] - 1;
    if (lineIndex >= lines.size() || start >= lines.get(lineIndex).length()) {
      return Optional.empty();
    }
    String line = lines.get(lineIndex);
    char first = line.charAt(start);
    if (first == '"' || first == '\'' || first == '|' || first == '>' || first == '[' || first == '{') {
      return Optional.empty();
    }
    int comment = line.indexOf(" #", start);
    int end = comment < 0 ? line.length() : comment;
    String value = line.substring(start, end).stripTrailing();
    String edited = line.substring(0, start) + rendered + line.substring(start + value.length());
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < lines.size(); i++) {
      out.append(i == lineIndex ? edited : lines.get(i)).append('\n');
    }
    return Optional.of(text.endsWith("\n") ? out.toString() : out.substring(0, out.length() - 1));
  }

  /** The line and column (1-based) of the key's scalar value, when it sits on the key's line. */
  private static Optional<int[]> locate(String text, String key) {
    try (JsonParser parser = FACTORY.createParser(text)) {
      Deque<String> path = new ArrayDeque<>();
      String field = null;
      int fieldLine = -1;
      for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
        switch (token) {
          case FIELD_NAME -> {
            field = parser.currentName();
            fieldLine = parser.currentTokenLocation().getLineNr();
          }
          case START_OBJECT -> {
            if (field != null) {
              path.addLast(field);
            }
            field = null;
          }
          case END_OBJECT -> path.pollLast();
          case START_ARRAY -> {
            parser.skipChildren();
            field = null;
          }
          default -> {
            if (field != null && joined(path, field).equals(key)
                && parser.currentTokenLocation().getLineNr() == fieldLine) {
              return Optional.of(new int[] {fieldLine, parser.currentTokenLocation().getColumnNr()});
            }
            field = null;
          }
        }
      }
    } catch (IOException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  private static String joined(Deque<String> path, String field) {
    StringBuilder key = new StringBuilder();
    for (String part : path) {
      key.append(part).append('.');
    }
    return key.append(field).toString().toLowerCase(Locale.ROOT);
  }
}
