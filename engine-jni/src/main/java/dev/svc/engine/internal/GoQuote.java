package dev.svc.engine.internal;

/**
 * Go's {@code %q} quoting ({@code strconv.Quote}), which the engine and the reference bindings use to
 * show user text inside messages: {@code invalid duration "1h 30m"}. Messages the library writes
 * itself quote the same way, so they read like the engine's (bindings.md §13.5).
 *
 * <p>Printable characters (Unicode categories L, M, N, P and S, and the ASCII space) stay as they
 * are; {@code "} and {@code \} and the C control escapes get a backslash; anything else is escaped as
 * a backslash and {@code xNN} below U+0080, {@code uNNNN} up to U+FFFF and {@code UNNNNNNNN} above
 * (lowercase hex digits). A lone surrogate, which has no UTF-8 form, reads as U+FFFD as in the
 * TypeScript binding. Java's Unicode tables may call a newly assigned character printable where Go's
 * don't yet, or the other way round.
 *
 * <p><b>Thread safety:</b> stateless and thread-safe.
 */
public final class GoQuote {

  private static final char REPLACEMENT = '\uFFFD';

  private GoQuote() {}

  /** {@code text} between double quotes, escaped as Go's {@code strconv.Quote} escapes it. */
  public static String quote(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); ) {
      int codePoint = text.codePointAt(i);
      i += Character.charCount(codePoint);
      appendEscaped(out, Character.getType(codePoint) == Character.SURROGATE ? REPLACEMENT : codePoint);
    }
    return out.append('"').toString();
  }

  private static void appendEscaped(StringBuilder out, int codePoint) {
    switch (codePoint) {
      case '"' -> out.append("\\\"");
      case '\\' -> out.append("\\\\");
      case 0x07 -> out.append("\\a");
      case '\b' -> out.append("\\b");
      case '\f' -> out.append("\\f");
      case '\n' -> out.append("\\n");
      case '\r' -> out.append("\\r");
      case '\t' -> out.append("\\t");
      case 0x0B -> out.append("\\v");
      default -> appendOther(out, codePoint);
    }
  }

  private static void appendOther(StringBuilder out, int codePoint) {
    if (isPrintable(codePoint)) {
      out.appendCodePoint(codePoint);
    } else if (codePoint < 0x80) {
      out.append(String.format("\\x%02x", codePoint));
    } else if (codePoint <= 0xFFFF) {
      out.append(String.format("\\u%04x", codePoint));
    } else {
      out.append(String.format("\\U%08x", codePoint));
    }
  }

  // Go's unicode.IsPrint: letters, marks, numbers, punctuation and symbols, plus the ASCII space.
  private static boolean isPrintable(int codePoint) {
    if (codePoint == ' ') {
      return true;
    }
    return switch (Character.getType(codePoint)) {
      case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
          Character.MODIFIER_LETTER, Character.OTHER_LETTER,
          Character.NON_SPACING_MARK, Character.ENCLOSING_MARK, Character.COMBINING_SPACING_MARK,
          Character.DECIMAL_DIGIT_NUMBER, Character.LETTER_NUMBER, Character.OTHER_NUMBER,
          Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION, Character.START_PUNCTUATION,
          Character.END_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION,
          Character.FINAL_QUOTE_PUNCTUATION, Character.OTHER_PUNCTUATION,
          Character.MATH_SYMBOL, Character.CURRENCY_SYMBOL, Character.MODIFIER_SYMBOL,
          Character.OTHER_SYMBOL -> true;
      default -> false;
    };
  }
}
