package dev.svc.server.engine;

import com.fasterxml.jackson.databind.util.RawValue;
import dev.svc.server.http.Utf8;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * The usual eval body read in one pass over its bytes, without a JSON library: an object with an
 * object {@code input}, at most a whole-number {@code timeout_ms} and at most a boolean {@code trace},
 * each once. It accepts a subset of what Jackson accepts, with the same meaning, and declines the
 * rest, which {@link EvalBody} then leaves to {@link dev.svc.server.http.ApiJson}, whose refusal says
 * what is wrong: strict JSON (RFC 8259) in UTF-8, no key given twice in an object, nothing after the
 * body but white space. To stay a subset it also declines what is valid but rare: keys written with
 * escapes or longer than {@value #LONGEST_KEY} bytes, objects of more than {@value #MOST_KEYS} keys,
 * nesting deeper than {@value #MOST_DEPTH}, numbers longer than {@value #LONGEST_NUMBER} characters
 * and a {@code timeout_ms} of more than 18 digits. (Jackson's own bounds are wider: keys of 50 000
 * bytes, nesting 1000 deep, numbers of 1000 characters.)
 *
 * <p>It replaced a pass of Jackson's streaming parser, whose set-up and tear-down per body (about
 * 2 µs on the event loop) cost ten times the scan.
 *
 * <p><b>Thread safety:</b> not thread-safe: one instance per body.
 */
final class UsualBodyScan {

  static final int MOST_KEYS = 32;
  static final int MOST_DEPTH = 256;
  static final int LONGEST_NUMBER = 100;
  static final int LONGEST_KEY = 1000;

  /** Thrown to decline; no stack trace, as declining is an answer, not a failure. */
  private static final class Declined extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final Declined INSTANCE = new Declined();

    private Declined() {
      super("not the usual body", null, false, false);
    }
  }

  private final byte[] bytes;
  private int at;
  // The keys of the objects open, outermost first, each as its start and its end (at its closing
  // quote), to find one given twice; an object's keys are popped when it closes.
  private int[] keys = new int[32];
  private int keysTop;

  private UsualBodyScan(byte[] bytes) {
    this.bytes = bytes;
  }

  /**
   * The usual body.
   *
   * @param bytes the body
   * @return the body, its input as the request wrote it; empty for any other body
   */
  static Optional<EvalBody> read(byte[] bytes) {
    if (Utf8.firstInvalid(bytes) >= 0) {
      return Optional.empty();
    }
    try {
      return Optional.of(new UsualBodyScan(bytes).body());
    } catch (Declined e) {
      return Optional.empty();
    }
  }

  private EvalBody body() {
    skipSpace();
    expect('{');
    String input = null;
    Long timeoutMs = null;
    Boolean trace = null;
    skipSpace();
    if (peek() != '}') {
      do {
        skipSpace();
        String field = fieldName();
        skipSpace();
        expect(':');
        skipSpace();
        if (field.equals("input") && input == null && peek() == '{') {
          int start = at;
          value(0);
          input = new String(bytes, start, at - start, StandardCharsets.UTF_8);
        } else if (field.equals("timeout_ms") && timeoutMs == null) {
          timeoutMs = wholeNumber();
        } else if (field.equals("trace") && trace == null) {
          trace = bool();
        } else {
          throw Declined.INSTANCE;
        }
        skipSpace();
      } while (take(','));
    }
    expect('}');
    skipSpace();
    if (at != bytes.length || input == null) {
      throw Declined.INSTANCE;
    }
    return new EvalBody(new RawValue(input), Optional.ofNullable(timeoutMs), Optional.ofNullable(trace));
  }

  // A top-level key: one of the three, written without escapes.
  private String fieldName() {
    int start = at;
    int end = plainKey();
    return new String(bytes, start + 1, end - start - 1, StandardCharsets.US_ASCII);
  }

  private void value(int depth) {
    if (depth >= MOST_DEPTH) {
      throw Declined.INSTANCE;
    }
    switch (peek()) {
      case '{' -> object(depth + 1);
      case '[' -> array(depth + 1);
      case '"' -> string();
      case 't' -> literal("true");
      case 'f' -> literal("false");
      case 'n' -> literal("null");
      default -> number();
    }
  }

  private void object(int depth) {
    at++;
    skipSpace();
    if (take('}')) {
      return;
    }
    int first = keysTop;
    do {
      skipSpace();
      if (keysTop - first == 2 * MOST_KEYS) {
        throw Declined.INSTANCE;
      }
      int start = at + 1;
      int end = plainKey();
      for (int k = first; k < keysTop; k += 2) {
        if (sameBytes(keys[k], keys[k + 1], start, end)) {
          throw Declined.INSTANCE;
        }
      }
      if (keysTop == keys.length) {
        keys = Arrays.copyOf(keys, 2 * keys.length);
      }
      keys[keysTop++] = start;
      keys[keysTop++] = end;
      skipSpace();
      expect(':');
      skipSpace();
      value(depth);
      skipSpace();
    } while (take(','));
    expect('}');
    keysTop = first;
  }

  private void array(int depth) {
    at++;
    skipSpace();
    if (take(']')) {
      return;
    }
    do {
      skipSpace();
      value(depth);
      skipSpace();
    } while (take(','));
    expect(']');
  }

  // A key without escapes; returns the offset of its closing quote. A key with an escape may equal
  // another written differently, which comparing bytes wouldn't see: declined.
  private int plainKey() {
    int start = at;
    string();
    if (at - start - 2 > LONGEST_KEY) {
      throw Declined.INSTANCE;
    }
    for (int i = start + 1; i < at - 1; i++) {
      if (bytes[i] == '\\') {
        throw Declined.INSTANCE;
      }
    }
    return at - 1;
  }

  // The loops over bytes keep the offset in a local: it is the scan's hot path.
  private void string() {
    expect('"');
    int i = at;
    while (true) {
      if (i == bytes.length) {
        throw Declined.INSTANCE;
      }
      int b = bytes[i++] & 0xFF;
      if (b == '"') {
        at = i;
        return;
      }
      if (b < 0x20) {
        // A control character must be escaped.
        throw Declined.INSTANCE;
      }
      if (b == '\\') {
        at = i;
        escape();
        i = at;
      }
    }
  }

  private void escape() {
    int escaped = next();
    if (escaped == 'u') {
      for (int k = 0; k < 4; k++) {
        int hex = next();
        if (!(hex >= '0' && hex <= '9' || hex >= 'a' && hex <= 'f' || hex >= 'A' && hex <= 'F')) {
          throw Declined.INSTANCE;
        }
      }
    } else if ("\"\\/bfnrt".indexOf(escaped) < 0) {
      throw Declined.INSTANCE;
    }
  }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  private void number() {
    int start = at;
    take('-');
    if (!take('0')) {
      digits();
    }
    if (take('.')) {
      digits();
    }
    if (take('e') || take('E')) {
      if (!take('+')) {
        take('-');
      }
      digits();
    }
    if (at - start > LONGEST_NUMBER) {
      throw Declined.INSTANCE;
    }
  }

  private void digits() {
    int start = at;
    while (at < bytes.length && bytes[at] >= '0' && bytes[at] <= '9') {
      at++;
    }
    if (at == start) {
      throw Declined.INSTANCE;
    }
  }

  // -?(0|[1-9][0-9]*) of at most 18 digits, which fits a long; a fraction or exponent is declined.
  private long wholeNumber() {
    boolean negative = take('-');
    int start = at;
    long value = 0;
    if (!take('0')) {
      digits();
      for (int i = start; i < at; i++) {
        value = value * 10 + (bytes[i] - '0');
      }
    }
    if (at - start > 18 || at < bytes.length && (bytes[at] == '.' || bytes[at] == 'e' || bytes[at] == 'E')) {
      throw Declined.INSTANCE;
    }
    return negative ? -value : value;
  }

  private boolean bool() {
    if (peek() == 't') {
      literal("true");
      return true;
    }
    literal("false");
    return false;
  }

  private void literal(String word) {
    for (int k = 0; k < word.length(); k++) {
      if (next() != word.charAt(k)) {
        throw Declined.INSTANCE;
      }
    }
  }

  private boolean sameBytes(int start, int end, int otherStart, int otherEnd) {
    if (end - start != otherEnd - otherStart) {
      return false;
    }
    for (int k = 0; k < end - start; k++) {
      if (bytes[start + k] != bytes[otherStart + k]) {
        return false;
      }
    }
    return true;
  }

  // JSON's white space: space, tab, line feed, carriage return.
  private void skipSpace() {
    int i = at;
    while (i < bytes.length && (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\n' || bytes[i] == '\r')) {
      i++;
    }
    at = i;
  }

  private int peek() {
    if (at == bytes.length) {
      throw Declined.INSTANCE;
    }
    return bytes[at] & 0xFF;
  }

  private int next() {
    int b = peek();
    at++;
    return b;
  }

  private boolean take(char c) {
    if (at < bytes.length && bytes[at] == c) {
      at++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!take(c)) {
      throw Declined.INSTANCE;
    }
  }
}
