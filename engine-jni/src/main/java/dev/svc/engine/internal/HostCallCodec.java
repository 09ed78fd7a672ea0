package dev.svc.engine.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The JSON of one host call (module-abi §9): reads the module's request {@code
 * {"function":"«name»","args":[«arg»,…]}} and writes the answer {@code {"result":«value»}}.
 *
 * <p>A host call is on the evaluation's hot path, and a Jackson parser, tree and generator took
 * longer than the engine's own share of the call. So the shapes the module and most host functions
 * produce are read and written straight from and to bytes: the compact request the module writes,
 * whose args are plain strings, small integers, booleans or {@code null}, and an answer whose
 * result is one of those. Everything else (an arg that is an object, a list, a float, a string with
 * an escape; a request of another shape) goes through Jackson, as all of them did before. Both
 * ways give the same {@link Call} for the same bytes, and the same answer bytes for the same
 * result.
 *
 * <p><b>Thread safety:</b> stateless; thread-safe.
 */
public final class HostCallCodec {

  /**
   * One request: the function's name and its args as the trees Jackson's {@code readTree} builds.
   *
   * @param function the name, empty when the request names none
   * @param args the args in declaration order, unmodifiable; empty when the request has none
   */
  public record Call(String function, List<JsonNode> args) {}

  private static final byte[] REQUEST_START = ascii("{\"function\":\"");
  private static final byte[] ARGS_START = ascii(",\"args\":[");
  private static final byte[] TRUE = ascii("true");
  private static final byte[] FALSE = ascii("false");
  private static final byte[] NULL = ascii("null");
  private static final byte[] ANSWER_START = ascii("{\"result\":");
  private static final byte[] NULL_ANSWER = ascii("{\"result\":null}");
  private static final byte[] TRUE_ANSWER = ascii("{\"result\":true}");
  private static final byte[] FALSE_ANSWER = ascii("{\"result\":false}");
  // Up to nine digits always fit an int; Jackson reads longer integers as int, long or big.
  private static final int INT_DIGITS = 9;
  // Jackson refuses longer strings (in chars; a char takes at least a byte).
  private static final int MAX_STRING_LENGTH =
      AbiCodec.MAPPER.getFactory().streamReadConstraints().getMaxStringLength();

  private HostCallCodec() {}

  /**
   * Reads a request as Jackson reads it: {@code function} as text ({@code ""} when absent), the
   * values of {@code args} in order (none when absent).
   *
   * @throws IOException with Jackson's message when the bytes aren't JSON
   */
  public static Call read(byte[] request) throws IOException {
    Call call = readPlain(request);
    return call != null ? call : readWithJackson(request);
  }

  /**
   * The answer {@code {"result":«result»}} as Jackson writes it.
   *
   * @param result the host function's result; {@code null} is JSON null
   * @throws IOException {@code «number» isn't a JSON number} when it holds a NaN or infinite number,
   *     which Jackson would write as a string
   */
  public static byte[] answer(JsonNode result) throws IOException {
    byte[] plain = plainAnswer(result);
    if (plain != null) {
      return plain;
    }
    ObjectNode answer = AbiCodec.MAPPER.createObjectNode();
    answer.set("result", result);
    return AbiCodec.encodeFinite(answer);
  }

  /** The request when it has the module's compact shape and plain args; else {@code null}. */
  static Call readPlain(byte[] request) {
    return new RequestReader(request).call();
  }

  /** The request as Jackson reads it: the way every request was read before. */
  static Call readWithJackson(byte[] request) throws IOException {
    JsonNode call = AbiCodec.MAPPER.readTree(request);
    JsonNode given = call.path("args");
    if (!given.isArray() && !given.isMissingNode()) {
      throw new IOException("args is " + given.getNodeType().name().toLowerCase(Locale.ROOT) + ", not an array");
    }
    List<JsonNode> args = new ArrayList<>();
    given.forEach(args::add);
    return new Call(call.path("function").asText(""), List.copyOf(args));
  }

  /** The answer for a null, boolean, int or long, or plain ASCII text; else {@code null}. */
  private static byte[] plainAnswer(JsonNode result) {
    if (result == null || result.isNull()) {
      return NULL_ANSWER;
    }
    if (result.isBoolean()) {
      return result.booleanValue() ? TRUE_ANSWER : FALSE_ANSWER;
    }
    if (result.isInt() || result.isLong()) {
      return answerOf(Long.toString(result.longValue()));
    }
    if (result.isTextual()) {
      return plainString(result.textValue());
    }
    return null;
  }

  /**
   * {@code {"result":"«text»"}} for text of printable ASCII characters, where Jackson escapes only
   * a quote and a backslash; {@code null} for any other text.
   */
  private static byte[] plainString(String text) {
    int escapes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        return null;
      }
      if (c == '"' || c == '\\') {
        escapes++;
      }
    }
    byte[] out = new byte[ANSWER_START.length + text.length() + escapes + 3];
    System.arraycopy(ANSWER_START, 0, out, 0, ANSWER_START.length);
    int at = ANSWER_START.length;
    out[at++] = '"';
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        out[at++] = '\\';
      }
      out[at++] = (byte) c;
    }
    out[at++] = '"';
    out[at] = '}';
    return out;
  }

  private static byte[] answerOf(String json) {
    byte[] out = new byte[ANSWER_START.length + json.length() + 1];
    System.arraycopy(ANSWER_START, 0, out, 0, ANSWER_START.length);
    for (int i = 0; i < json.length(); i++) {
      out[ANSWER_START.length + i] = (byte) json.charAt(i);
    }
    out[out.length - 1] = '}';
    return out;
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Reads the compact request the module writes, or gives up ({@code null}) at the first byte that
   * isn't part of it: Jackson reads the request then, and says what is wrong with it.
   */
  private static final class RequestReader {

    private final byte[] in;
    private int at;

    RequestReader(byte[] in) {
      this.in = in;
    }

    Call call() {
      if (!skip(REQUEST_START)) {
        return null;
      }
      String function = text();
      if (function == null || !skip(ARGS_START)) {
        return null;
      }
      List<JsonNode> args = new ArrayList<>(2);
      if (at < in.length && in[at] == ']') {
        at++;
      } else if (!readArgs(args)) {
        return null;
      }
      // The object ends with the args: no other member and nothing after it.
      boolean ends = at == in.length - 1 && in[at] == '}';
      return ends ? new Call(function, List.copyOf(args)) : null;
    }

    /** The args up to and past their closing bracket; false at anything but a plain value. */
    private boolean readArgs(List<JsonNode> args) {
      while (at < in.length) {
        JsonNode arg = plainValue();
        if (arg == null || at >= in.length) {
          return false;
        }
        args.add(arg);
        byte after = in[at++];
        if (after == ']') {
          return true;
        }
        if (after != ',') {
          return false;
        }
      }
      return false;
    }

    /** A plain string, small integer, boolean or null; {@code null} for any other value. */
    private JsonNode plainValue() {
      return switch (in[at]) {
        case '"' -> {
          at++;
          String text = text();
          yield text == null ? null : TextNode.valueOf(text);
        }
        case 't' -> skip(TRUE) ? BooleanNode.TRUE : null;
        case 'f' -> skip(FALSE) ? BooleanNode.FALSE : null;
        case 'n' -> skip(NULL) ? NullNode.instance : null;
        default -> smallInt();
      };
    }

    /**
     * The rest of a string after its opening quote, and past its closing one: text without escapes
     * or control characters, in valid UTF-8. {@code null} for any other string.
     */
    private String text() {
      int start = at;
      boolean ascii = true;
      while (at < in.length) {
        byte b = in[at];
        if (b == '"') {
          at++;
          int length = at - 1 - start;
          if (length > MAX_STRING_LENGTH) {
            return null;
          }
          return ascii
              ? new String(in, start, length, StandardCharsets.US_ASCII)
              : utf8(start, at - 1);
        }
        if (b == '\\' || (b >= 0 && b < 0x20)) {
          return null;
        }
        ascii &= b >= 0;
        at++;
      }
      return null;
    }

    /** The text of the bytes from {@code start} to {@code end} if they are valid UTF-8. */
    private String utf8(int start, int end) {
      try {
        return StandardCharsets.UTF_8
            .newDecoder()
            .decode(ByteBuffer.wrap(in, start, end - start))
            .toString();
      } catch (CharacterCodingException e) {
        return null;
      }
    }

    /** An integer of up to nine digits, without a leading zero; else {@code null}. */
    private JsonNode smallInt() {
      int start = at;
      boolean negative = in[at] == '-';
      if (negative) {
        at++;
      }
      int digitsFrom = at;
      int value = 0;
      while (at < in.length && in[at] >= '0' && in[at] <= '9' && at - digitsFrom < INT_DIGITS) {
        value = value * 10 + (in[at] - '0');
        at++;
      }
      int digits = at - digitsFrom;
      boolean leadingZero = digits > 1 && in[digitsFrom] == '0';
      boolean ends = at < in.length && (in[at] == ',' || in[at] == ']');
      if (digits == 0 || leadingZero || !ends || (negative && value == 0)) {
        at = start;
        return null;
      }
      return IntNode.valueOf(negative ? -value : value);
    }

    private boolean skip(byte[] expected) {
      if (at + expected.length > in.length) {
        return false;
      }
      for (int i = 0; i < expected.length; i++) {
        if (in[at + i] != expected[i]) {
          return false;
        }
      }
      at += expected.length;
      return true;
    }
  }
}
