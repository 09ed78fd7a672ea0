package dev.svc.server.http;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A {@code Content-Type} header's media type and charset (RFC 9110 §8.3), read so that a type only
 * passes when it is the one asked for: {@code application/jsonx} isn't {@code application/json}.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param name the type and subtype in lower case, such as {@code application/json}; empty when the
 *     header is missing
 * @param charset the {@code charset} parameter in lower case, without quotes, when there is one
 */
record MediaType(String name, Optional<String> charset) {

  // The labels the WHATWG Encoding Standard maps to UTF-8: clients write `utf8` as often as `utf-8`.
  private static final Set<String> UTF_8_LABELS =
      Set.of("utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8");

  /**
   * The media type of a {@code Content-Type} header.
   *
   * @param header the header's value, or null when the request has none
   * @return its type and charset
   */
  static MediaType of(String header) {
    if (header == null) {
      return new MediaType("", Optional.empty());
    }
    // A client sends the same header request after request: the last one read is kept with its type.
    Read known = last;
    if (header.equals(known.header())) {
      return known.type();
    }
    MediaType type = parse(header);
    last = new Read(header, type);
    return type;
  }

  /** A header and its type. */
  private record Read(String header, MediaType type) {}

  private static volatile Read last = new Read("application/json", parse("application/json"));

  private static MediaType parse(String header) {
    String[] parts = header.split(";", -1);
    Optional<String> charset = Optional.empty();
    for (int i = 1; i < parts.length; i++) {
      int equals = parts[i].indexOf('=');
      if (equals > 0 && parts[i].substring(0, equals).strip().equalsIgnoreCase("charset")) {
        String value = parts[i].substring(equals + 1).strip();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
          value = value.substring(1, value.length() - 1);
        }
        charset = Optional.of(value.toLowerCase(Locale.ROOT));
      }
    }
    return new MediaType(parts[0].strip().toLowerCase(Locale.ROOT), charset);
  }

  /**
   * Whether the body is UTF-8 as far as the header says: no charset, or a label of UTF-8.
   *
   * @return false only when the header names another charset
   */
  boolean declaresUtf8() {
    return charset.isEmpty() || UTF_8_LABELS.contains(charset.get());
  }
}
