package dev.svc.server.http;

import io.vertx.ext.web.RoutingContext;
import java.util.Arrays;

/**
 * Strict UTF-8 (RFC 3629) for what callers send: request bodies and paths. Jackson and Vert.x's path
 * decoder both decode leniently: an overlong {@code C0 AF} reads as {@code /}, and a surrogate encoded
 * on its own (CESU-8, {@code ED A0 80}) reads as half a character. A name or an input that means
 * something else to the server than to the bytes' other readers is refused here instead.
 *
 * <p><b>Thread safety:</b> stateless and thread-safe.
 */
public final class Utf8 {

  private Utf8() {}

  /**
   * Where {@code bytes} stop being UTF-8: a byte that can't start a character, a sequence cut short,
   * an overlong form, a surrogate, or a code point above U+10FFFF.
   *
   * @param bytes the text's bytes
   * @return the offset of the first byte of the first bad sequence, or -1 when all is UTF-8
   */
  public static int firstInvalid(byte[] bytes) {
    int i = 0;
    while (i < bytes.length) {
      int b = bytes[i] & 0xFF;
      if (b < 0x80) {
        i++;
        continue;
      }
      int length = sequenceLength(bytes, i);
      if (length == 0) {
        return i;
      }
      i += length;
    }
    return -1;
  }

  // The length of the well-formed sequence starting at i (its lead byte is not ASCII), or 0. The
  // ranges of the second byte are those of RFC 3629's table, which leave out overlong forms,
  // surrogates and code points past U+10FFFF.
  private static int sequenceLength(byte[] bytes, int i) {
    int lead = bytes[i] & 0xFF;
    int length;
    int low = 0x80;
    int high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      low = lead == 0xE0 ? 0xA0 : 0x80;
      high = lead == 0xED ? 0x9F : 0xBF;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      low = lead == 0xF0 ? 0x90 : 0x80;
      high = lead == 0xF4 ? 0x8F : 0xBF;
    } else {
      return 0;
    }
    if (i + length > bytes.length) {
      return 0;
    }
    int second = bytes[i + 1] & 0xFF;
    if (second < low || second > high) {
      return 0;
    }
    for (int k = 2; k < length; k++) {
      int next = bytes[i + k] & 0xFF;
      if (next < 0x80 || next > 0xBF) {
        return 0;
      }
    }
    return length;
  }

  /**
   * A router's handler, first on every path: refuses with 400 a request whose path, its
   * percent-escapes decoded, isn't UTF-8, before any route decodes it leniently.
   *
   * @param ctx the request
   */
  public static void requirePath(RoutingContext ctx) {
    String path = ctx.request().path();
    if (path != null && !plainAscii(path) && firstInvalid(pathBytes(path)) >= 0) {
      ctx.fail(new ApiError(400, "the request path isn't valid UTF-8",
          "percent-encode the UTF-8 bytes of each character in the path; overlong forms and encoded"
              + " surrogates are refused"));
      return;
    }
    ctx.next();
  }

  // Nearly every path: nothing escaped, nothing above ASCII, so nothing to decode.
  private static boolean plainAscii(String path) {
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == '%' || c >= 0x80) {
        return false;
      }
    }
    return true;
  }

  // The path's bytes: each character as the byte it arrived as (the request line's bytes arrive as
  // characters 0-255), each %XX as the byte it stands for.
  static byte[] pathBytes(String path) {
    byte[] bytes = new byte[path.length()];
    int n = 0;
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      int high = i + 2 < path.length() ? Character.digit(path.charAt(i + 1), 16) : -1;
      int low = i + 2 < path.length() ? Character.digit(path.charAt(i + 2), 16) : -1;
      if (c == '%' && high >= 0 && low >= 0) {
        bytes[n++] = (byte) (high << 4 | low);
        i += 2;
      } else if (c > 0xFF) {
        // Not a byte: no HTTP/1.1 request line carries it. Refused as a stray byte would be.
        bytes[n++] = (byte) 0xFF;
      } else {
        bytes[n++] = (byte) c;
      }
    }
    return Arrays.copyOf(bytes, n);
  }
}
