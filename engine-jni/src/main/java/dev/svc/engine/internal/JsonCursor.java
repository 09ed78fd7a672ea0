package dev.svc.engine.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/**
 * A position in the bytes of one JSON text and the steps the library's hand-written readers take
 * over it: the module's eval answers ({@link EvalRecordReader}), its host-call requests ({@link
 * HostCallCodec}) and the scan of an eval record's decision ({@link DecisionScan}). They read only
 * what the module writes, straight from bytes, because a Jackson parser cost as much as the work it
 * served on these hot paths.
 *
 * <p>Each step reads what JSON allows and Jackson reads the same way, or gives up: it throws {@link
 * #UNEXPECTED} at a byte it doesn't expect, and indexing past the end throws {@link
 * IndexOutOfBoundsException}. A reader catches both and leaves the bytes to Jackson, which says what
 * is wrong with them. A {@link #compact} cursor reads JSON without white space between tokens, as
 * the module writes it; a {@link #spaced} one skips white space before every token. Neither skips
 * it inside an exact byte run ({@link #skip}) or a string.
 *
 * <p><b>Thread safety:</b> not thread-safe; one cursor per text.
 */
final class JsonCursor {

  /** Thrown to leave a fast path; carries no stack trace, so giving up costs nothing. */
  static final class Unexpected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private Unexpected() {
      super(null, null, false, false);
    }
  }

  /** The one instance every step throws. */
  static final Unexpected UNEXPECTED = new Unexpected();

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final byte[] TRUE = ascii("true");
  private static final byte[] FALSE = ascii("false");
  private static final byte[] NULL = ascii("null");
  private static final BigInteger INT_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
  private static final BigInteger INT_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
  private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
  // Up to nine digits always fit an int.
  private static final int SMALL_INT_DIGITS = 9;
  // Jackson refuses longer strings (in chars; a char takes at least a byte).
  private static final int MAX_STRING_LENGTH =
      AbiCodec.MAPPER.getFactory().streamReadConstraints().getMaxStringLength();

  private final byte[] in;
  private final boolean spaced;
  private int at;
  // Whether the last run plainEnd found holds a byte outside ASCII.
  private boolean wide;
  // Where the text of the last string unescaped() moved past starts.
  private int textStart;

  private JsonCursor(byte[] in, boolean spaced) {
    this.in = in;
    this.spaced = spaced;
  }

  /** A cursor at the start of {@code in}, where white space between tokens is unexpected. */
  static JsonCursor compact(byte[] in) {
    return new JsonCursor(in, false);
  }

  /** A cursor at the start of {@code in} that skips white space before every token. */
  static JsonCursor spaced(byte[] in) {
    return new JsonCursor(in, true);
  }

  /** Whether every byte has been read. */
  boolean atEnd() {
    return at == in.length;
  }

  /** The next token's first byte, not consumed. */
  byte peek() {
    skipSpace();
    return in[at];
  }

  /** Moves past the next token's first byte, which must be {@code c}. */
  void expect(char c) {
    if (peek() != c) {
      throw UNEXPECTED;
    }
    at++;
  }

  /** Moves past {@code bytes} if they come next exactly, white space included; whether they did. */
  boolean skip(byte[] bytes) {
    if (at + bytes.length > in.length) {
      return false;
    }
    for (int i = 0; i < bytes.length; i++) {
      if (in[at + i] != bytes[i]) {
        return false;
      }
    }
    at += bytes.length;
    return true;
  }

  /** Enters an object or array; whether it has a first member or element (else it is left). */
  boolean open(char open, char close) {
    expect(open);
    if (peek() == close) {
      at++;
      return false;
    }
    return true;
  }

  /** Moves past the comma before the next member or element, or past {@code close}: false then. */
  boolean next(char close) {
    byte b = peek();
    at++;
    if (b == ',') {
      return true;
    }
    if (b == close) {
      return false;
    }
    throw UNEXPECTED;
  }

  /**
   * A member's name and its colon, by its index in {@code names}, or -1 for another name. Names are
   * matched as bytes, without escapes, and never made strings; a name of fewer than two bytes is
   * always another.
   */
  int member(byte[][] names) {
    int end = unescaped();
    int start = textStart;
    expect(':');
    int length = end - start;
    if (length < 2) {
      return -1;
    }
    // Length and first two bytes tell most names apart before the rest is compared.
    byte first = in[start];
    byte second = in[start + 1];
    for (int i = 0; i < names.length; i++) {
      byte[] name = names[i];
      if (name.length == length && name[0] == first && name[1] == second && sameBytes(name, start)) {
        return i;
      }
    }
    return -1;
  }

  /** Whether {@code name} is at {@code start}: a loop beats Arrays.equals on a few bytes. */
  private boolean sameBytes(byte[] name, int start) {
    for (int k = 2; k < name.length; k++) {
      if (in[start + k] != name[k]) {
        return false;
      }
    }
    return true;
  }

  /** A string, escapes resolved. */
  String string() {
    expect('"');
    int start = at;
    int end = plainEnd(start);
    if (in[end] == '"') {
      at = end + 1;
      return text(start, end);
    }
    StringBuilder out = new StringBuilder(end - start + 16);
    while (true) {
      out.append(text(start, end));
      at = end;
      if (in[end] == '"') {
        at++;
        if (out.length() > MAX_STRING_LENGTH) {
          throw UNEXPECTED;
        }
        return out.toString();
      }
      out.append(unescape(in[end + 1]));
      start = at;
      end = plainEnd(start);
    }
  }

  /** A string without escapes; one with an escape is unexpected. */
  String plainString() {
    int end = unescaped();
    return text(textStart, end);
  }

  // Moves past a string without escapes; its text runs from textStart to the index returned.
  private int unescaped() {
    expect('"');
    textStart = at;
    int end = plainEnd(at);
    if (in[end] != '"') {
      throw UNEXPECTED;
    }
    at = end + 1;
    return end;
  }

  /** Moves past a string, escapes and all, without reading it. */
  void skipString() {
    expect('"');
    while (in[at] != '"') {
      at += in[at] == '\\' ? 2 : 1;
    }
    at++;
  }

  /**
   * Where the run of plain string bytes from {@code from} ends: at a quote or a backslash. A control
   * byte, which JSON doesn't allow in a string, is unexpected.
   */
  private int plainEnd(int from) {
    byte[] bytes = in;
    boolean sawWide = false;
    int i = from;
    while (true) {
      byte b = bytes[i];
      if (b == '"' || b == '\\') {
        wide = sawWide;
        return i;
      }
      if (b < 0x20) {
        if (b >= 0) {
          throw UNEXPECTED;
        }
        sawWide = true;
      }
      i++;
    }
  }

  /** The text of the run from {@code start} to {@code end}: ASCII as is, else strictly UTF-8. */
  private String text(int start, int end) {
    int length = end - start;
    if (length > MAX_STRING_LENGTH) {
      throw UNEXPECTED;
    }
    if (!wide) {
      return new String(in, start, length, StandardCharsets.ISO_8859_1);
    }
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(in, start, length)).toString();
    } catch (CharacterCodingException e) {
      throw UNEXPECTED;
    }
  }

  /** The character of the escape whose letter is {@code letter}; moves past the escape. */
  private char unescape(byte letter) {
    at += 2;
    return switch (letter) {
      case '"' -> '"';
      case '\\' -> '\\';
      case '/' -> '/';
      case 'b' -> '\b';
      case 'f' -> '\f';
      case 'n' -> '\n';
      case 'r' -> '\r';
      case 't' -> '\t';
      case 'u' -> {
        char unit = (char) parse(new String(in, at, 4, StandardCharsets.US_ASCII), 16);
        at += 4;
        yield unit;
      }
      default -> throw UNEXPECTED;
    };
  }

  /** {@code true} or {@code false}. */
  boolean bool() {
    skipSpace();
    if (skip(TRUE)) {
      return true;
    }
    if (skip(FALSE)) {
      return false;
    }
    throw UNEXPECTED;
  }

  /** Moves past {@code null}. */
  void nullLiteral() {
    skipSpace();
    if (!skip(NULL)) {
      throw UNEXPECTED;
    }
  }

  /** An integer of up to nine digits, without a leading zero, and not {@code -0}. */
  int smallInt() {
    skipSpace();
    boolean negative = in[at] == '-';
    if (negative) {
      at++;
    }
    int digitsFrom = at;
    int value = 0;
    while (at < in.length && in[at] >= '0' && in[at] <= '9') {
      if (at - digitsFrom == SMALL_INT_DIGITS) {
        throw UNEXPECTED;
      }
      value = value * 10 + (in[at] - '0');
      at++;
    }
    int digits = at - digitsFrom;
    boolean leadingZero = digits > 1 && in[digitsFrom] == '0';
    if (digits == 0 || leadingZero || (negative && value == 0)) {
      throw UNEXPECTED;
    }
    return negative ? -value : value;
  }

  /** Any value, as the tree Jackson's {@code readTree} builds for it. */
  JsonNode value() {
    return switch (peek()) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> NODES.textNode(string());
      case 't', 'f' -> NODES.booleanNode(bool());
      case 'n' -> {
        nullLiteral();
        yield NODES.nullNode();
      }
      default -> number();
    };
  }

  private ObjectNode object() {
    ObjectNode out = NODES.objectNode();
    if (open('{', '}')) {
      do {
        String key = string();
        expect(':');
        out.set(key, value());
      } while (next('}'));
    }
    return out;
  }

  private ArrayNode array() {
    ArrayNode out = NODES.arrayNode();
    if (open('[', ']')) {
      do {
        out.add(value());
      } while (next(']'));
    }
    return out;
  }

  /** A number: an int, long or big integer node by size, a double node with a fraction or exponent. */
  private JsonNode number() {
    int start = at;
    if (in[at] == '-') {
      at++;
    }
    boolean integral = true;
    while (at < in.length) {
      byte b = in[at];
      if (b >= '0' && b <= '9') {
        at++;
      } else if (b == '.' || b == 'e' || b == 'E' || b == '+' || b == '-') {
        integral = false;
        at++;
      } else {
        break;
      }
    }
    String text = new String(in, start, at - start, StandardCharsets.US_ASCII);
    if (!integral) {
      try {
        return NODES.numberNode(Double.parseDouble(text));
      } catch (NumberFormatException e) {
        throw UNEXPECTED;
      }
    }
    if (at - start <= SMALL_INT_DIGITS) {
      return NODES.numberNode(parse(text, 10));
    }
    BigInteger big;
    try {
      big = new BigInteger(text);
    } catch (NumberFormatException e) {
      throw UNEXPECTED;
    }
    if (big.compareTo(INT_MIN) >= 0 && big.compareTo(INT_MAX) <= 0) {
      return NODES.numberNode(big.intValue());
    }
    if (big.compareTo(LONG_MIN) >= 0 && big.compareTo(LONG_MAX) <= 0) {
      return NODES.numberNode(big.longValue());
    }
    return NODES.numberNode(big);
  }

  private static int parse(String digits, int radix) {
    try {
      return Integer.parseInt(digits, radix);
    } catch (NumberFormatException e) {
      throw UNEXPECTED;
    }
  }

  /** Moves past the next value, nested objects and lists whole, without reading it. */
  void skipValue() {
    int depth = 0;
    do {
      byte b = peek();
      if (b == '"') {
        skipString();
        continue;
      }
      at++;
      if (b == '{' || b == '[') {
        depth++;
      } else if (b == '}' || b == ']') {
        depth--;
      } else if (b != ':' && b != ',') {
        // A number, true, false or null: up to what follows it.
        while (in[at] != ',' && in[at] != '}' && in[at] != ']' && in[at] > ' ') {
          at++;
        }
      }
    } while (depth > 0);
  }

  // Only a byte at or below the space can be white space: one comparison for every other token.
  private void skipSpace() {
    if (!spaced) {
      return;
    }
    byte b;
    while ((b = in[at]) <= ' ' && (b == ' ' || b == '\n' || b == '\r' || b == '\t')) {
      at++;
    }
  }

  /** The names of the members a reader tells apart, as bytes for {@link #member}. */
  static byte[][] names(String... names) {
    byte[][] out = new byte[names.length][];
    for (int i = 0; i < names.length; i++) {
      out[i] = ascii(names[i]);
    }
    return out;
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
