package dev.svc.cli.policy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON text read into plain values that keep what the records' printers need: objects as ordered
 * maps (the record's field order), numbers as their text ({@link Num}), strings decoded, {@code
 * null} as Java null. Only for the engine's own well-formed output.
 */
final class JsonTree {

  /** A JSON number as written, so {@code 1e+21} and {@code 80} print back unchanged. */
  record Num(String text) {}

  private final String json;
  private int at;

  private JsonTree(String json) {
    this.json = json;
  }

  /** The value of {@code json}. */
  static Object parse(String json) {
    JsonTree reader = new JsonTree(json);
    Object value = reader.value();
    reader.space();
    if (reader.at != json.length()) {
      throw reader.broken("text after the value");
    }
    return value;
  }

  /** {@code value} as a map; empty for anything else. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Object value) {
    return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
  }

  /** {@code value} as a list; empty for anything else. */
  @SuppressWarnings("unchecked")
  static List<Object> list(Object value) {
    return value instanceof List<?> list ? (List<Object>) list : List.of();
  }

  /** {@code value} as text: strings as they are, numbers as written, others as JSON prints them. */
  static String text(Object value) {
    if (value instanceof Num n) {
      return n.text();
    }
    return String.valueOf(value);
  }

  private Object value() {
    space();
    if (at >= json.length()) {
      throw broken("a value");
    }
    char c = json.charAt(at);
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> word("true", Boolean.TRUE);
      case 'f' -> word("false", Boolean.FALSE);
      case 'n' -> word("null", null);
      default -> number();
    };
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    at++;
    space();
    if (peek('}')) {
      at++;
      return map;
    }
    while (true) {
      space();
      String key = string();
      space();
      expect(':');
      map.put(key, value());
      space();
      if (peek(',')) {
        at++;
      } else {
        expect('}');
        return map;
      }
    }
  }

  private List<Object> array() {
    List<Object> list = new ArrayList<>();
    at++;
    space();
    if (peek(']')) {
      at++;
      return list;
    }
    while (true) {
      list.add(value());
      space();
      if (peek(',')) {
        at++;
      } else {
        expect(']');
        return list;
      }
    }
  }

  private String string() {
    expect('"');
    StringBuilder out = new StringBuilder();
    while (at < json.length()) {
      char c = json.charAt(at++);
      if (c == '"') {
        return out.toString();
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char e = json.charAt(at++);
      switch (e) {
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          out.append((char) Integer.parseInt(json.substring(at, at + 4), 16));
          at += 4;
        }
        default -> out.append(e);
      }
    }
    throw broken("the end of a string");
  }

  private Object word(String word, Object value) {
    if (!json.startsWith(word, at)) {
      throw broken(word);
    }
    at += word.length();
    return value;
  }

  private Num number() {
    int start = at;
    while (at < json.length() && "+-0123456789.eE".indexOf(json.charAt(at)) >= 0) {
      at++;
    }
    if (start == at) {
      throw broken("a value");
    }
    return new Num(json.substring(start, at));
  }

  private void space() {
    while (at < json.length() && Character.isWhitespace(json.charAt(at))) {
      at++;
    }
  }

  private boolean peek(char c) {
    return at < json.length() && json.charAt(at) == c;
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw broken("'" + c + "'");
    }
    at++;
  }

  private IllegalArgumentException broken(String wanted) {
    return new IllegalArgumentException("the engine's JSON is broken at offset " + at + ": expected " + wanted);
  }
}
