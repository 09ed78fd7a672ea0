package dev.svc.engine.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.databind.util.RawValue;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;

/**
 * Writes an eval request straight into bytes, without Jackson, for the inputs hosts pass most: maps
 * with string keys, collections, strings, booleans, whole numbers, finite doubles and nulls; the
 * same as Jackson trees ({@code ObjectNode}, {@code ArrayNode}, text, int, long, double, boolean
 * and null nodes); and JSON text already written ({@link RawValue} holding a string, as the server
 * passes a request's input on). The bytes are the ones {@link AbiCodec#MAPPER} writes for the same
 * input (a differential test holds it to that); making a Jackson generator and finding serializers
 * for a small input cost as long as the engine takes to decide on it.
 *
 * <p>Any other input (dates, durations, records, optionals, big numbers, a map with other keys, a
 * string with an unpaired surrogate, nesting deeper than {@value #MAX_DEPTH}) is declined: {@link
 * #request} answers {@code null} and the caller writes the request with Jackson, which knows how, or
 * says why it can't.
 *
 * <p><b>Thread safety:</b> one writer per request; {@link #request} is thread-safe.
 */
final class EvalRequestWriter {

  /** Deeper inputs go to Jackson: so does a map that holds itself, and Jackson's error says so. */
  static final int MAX_DEPTH = 64;

  private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

  private byte[] out = new byte[256];
  private int length;

  private EvalRequestWriter() {}

  /**
   * {@code {"op":"eval","handle":…,"input":…}}, then {@code "timeout_ms"} when it is positive and
   * {@code "trace":false} when the trace is left out, as {@link AbiCodec#evalRequest} writes it.
   *
   * @return the request's bytes, or {@code null} when {@code input} isn't one of the shapes this
   *     writer knows
   */
  static byte[] request(long handle, Object input, long timeoutMillis, boolean trace) {
    EvalRequestWriter w = new EvalRequestWriter();
    w.ascii("{\"op\":\"eval\",\"handle\":");
    w.ascii(Long.toString(handle));
    w.ascii(",\"input\":");
    if (!w.value(input, 0)) {
      return null;
    }
    if (timeoutMillis > 0) {
      w.ascii(",\"timeout_ms\":");
      w.ascii(Long.toString(timeoutMillis));
    }
    if (!trace) {
      w.ascii(",\"trace\":false");
    }
    w.put('}');
    return Arrays.copyOf(w.out, w.length);
  }

  private boolean value(Object value, int depth) {
    if (value == null) {
      ascii("null");
      return true;
    }
    if (value instanceof String s) {
      return string(s);
    }
    if (value instanceof Boolean b) {
      ascii(b ? "true" : "false");
      return true;
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
      ascii(value.toString());
      return true;
    }
    if (value instanceof Double d) {
      return finite(d);
    }
    if (depth >= MAX_DEPTH) {
      return false;
    }
    if (value instanceof JsonNode node) {
      return node(node, depth);
    }
    if (value instanceof Map<?, ?> map) {
      return map(map, depth);
    }
    if (value instanceof Collection<?> list) {
      return list(list, depth);
    }
    if (value instanceof RawValue raw && raw.rawValue() instanceof String text) {
      return utf8(text);
    }
    return false;
  }

  private boolean node(JsonNode node, int depth) {
    if (node instanceof ObjectNode object) {
      put('{');
      boolean first = true;
      for (Map.Entry<String, JsonNode> field : object.properties()) {
        if (!first) {
          put(',');
        }
        first = false;
        if (!string(field.getKey()) || !colonThen(field.getValue(), depth)) {
          return false;
        }
      }
      put('}');
      return true;
    }
    if (node instanceof ArrayNode array) {
      put('[');
      for (int i = 0; i < array.size(); i++) {
        if (i > 0) {
          put(',');
        }
        if (!value(array.get(i), depth + 1)) {
          return false;
        }
      }
      put(']');
      return true;
    }
    if (node instanceof TextNode) {
      return string(node.textValue());
    }
    if (node instanceof IntNode || node instanceof LongNode) {
      ascii(Long.toString(node.longValue()));
      return true;
    }
    if (node instanceof DoubleNode) {
      return finite(node.doubleValue());
    }
    if (node instanceof BooleanNode) {
      ascii(node.booleanValue() ? "true" : "false");
      return true;
    }
    if (node instanceof NullNode) {
      ascii("null");
      return true;
    }
    return false;
  }

  private boolean map(Map<?, ?> map, int depth) {
    put('{');
    boolean first = true;
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      if (!(entry.getKey() instanceof String key)) {
        return false;
      }
      if (!first) {
        put(',');
      }
      first = false;
      if (!string(key) || !colonThen(entry.getValue(), depth)) {
        return false;
      }
    }
    put('}');
    return true;
  }

  private boolean list(Collection<?> list, int depth) {
    put('[');
    boolean first = true;
    for (Object element : list) {
      if (!first) {
        put(',');
      }
      first = false;
      if (!value(element, depth + 1)) {
        return false;
      }
    }
    put(']');
    return true;
  }

  private boolean colonThen(Object member, int depth) {
    put(':');
    return value(member, depth + 1);
  }

  // Jackson refuses NaN and the infinities (AbiCodec's FiniteNumbers): it says so, not this writer.
  private boolean finite(double d) {
    if (!Double.isFinite(d)) {
      return false;
    }
    ascii(Double.toString(d));
    return true;
  }

  /** A JSON string as Jackson escapes it: two-letter escapes, {@code \}{@code u00XX} for other controls, both halves of a surrogate pair. */
  private boolean string(String s) {
    put('"');
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
        put(c);
      } else if (c < 0x80) {
        escape(c);
      } else if (!Character.isSurrogate(c)) {
        encoded(c);
      } else if (pairAt(s, i)) {
        // Jackson escapes a character beyond the BMP as its two UTF-16 halves.
        unicodeEscape(c);
        unicodeEscape(s.charAt(++i));
      } else {
        return false;
      }
    }
    put('"');
    return true;
  }

  private void escape(char c) {
    put('\\');
    switch (c) {
      case '"', '\\' -> put(c);
      case '\b' -> put('b');
      case '\t' -> put('t');
      case '\f' -> put('f');
      case '\n' -> put('n');
      case '\r' -> put('r');
      default -> {
        put('u');
        hex4(c);
      }
    }
  }

  private void unicodeEscape(char c) {
    put('\\');
    put('u');
    hex4(c);
  }

  private void hex4(char c) {
    put(HEX[c >> 12]);
    put(HEX[(c >> 8) & 0xF]);
    put(HEX[(c >> 4) & 0xF]);
    put(HEX[c & 0xF]);
  }

  /** Text as it is, in UTF-8; false for an unpaired surrogate, which Jackson refuses. */
  private boolean utf8(String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        put(c);
      } else if (!Character.isSurrogate(c)) {
        encoded(c);
      } else if (pairAt(s, i)) {
        int code = Character.toCodePoint(c, s.charAt(++i));
        put(0xF0 | (code >> 18));
        put(0x80 | ((code >> 12) & 0x3F));
        put(0x80 | ((code >> 6) & 0x3F));
        put(0x80 | (code & 0x3F));
      } else {
        return false;
      }
    }
    return true;
  }

  private static boolean pairAt(String s, int i) {
    return Character.isHighSurrogate(s.charAt(i)) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
  }

  /** A character of the BMP from U+0080 on, not a surrogate, in UTF-8. */
  private void encoded(char c) {
    if (c < 0x800) {
      put(0xC0 | (c >> 6));
    } else {
      put(0xE0 | (c >> 12));
      put(0x80 | ((c >> 6) & 0x3F));
    }
    put(0x80 | (c & 0x3F));
  }

  private void ascii(String s) {
    int n = s.length();
    room(n);
    for (int i = 0; i < n; i++) {
      out[length++] = (byte) s.charAt(i);
    }
  }

  private void put(int b) {
    room(1);
    out[length++] = (byte) b;
  }

  private void room(int more) {
    if (length + more > out.length) {
      out = Arrays.copyOf(out, Math.max(out.length * 2, length + more));
    }
  }
}
