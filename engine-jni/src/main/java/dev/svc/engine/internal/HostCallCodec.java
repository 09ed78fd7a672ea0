package dev.svc.engine.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
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

  private static final byte[] FUNCTION_START = ascii("{\"function\":");
  private static final byte[] ARGS_START = ascii(",\"args\":[");
  private static final byte[] ARGS_END = ascii("]");
  private static final byte[] ANSWER_START = ascii("{\"result\":");
  private static final byte[] NULL_ANSWER = ascii("{\"result\":null}");
  private static final byte[] TRUE_ANSWER = ascii("{\"result\":true}");
  private static final byte[] FALSE_ANSWER = ascii("{\"result\":false}");

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

  /**
   * The request when it has the module's compact shape and plain args; else {@code null}, at the
   * first byte that isn't part of it: Jackson reads the request then, and says what is wrong with it.
   */
  static Call readPlain(byte[] request) {
    try {
      return plainCall(JsonCursor.compact(request));
    } catch (JsonCursor.Unexpected | IndexOutOfBoundsException e) {
      return null;
    }
  }

  private static Call plainCall(JsonCursor json) {
    if (!json.skip(FUNCTION_START)) {
      throw JsonCursor.UNEXPECTED;
    }
    String function = json.plainString();
    if (!json.skip(ARGS_START)) {
      throw JsonCursor.UNEXPECTED;
    }
    List<JsonNode> args = new ArrayList<>(2);
    if (!json.skip(ARGS_END)) {
      do {
        args.add(plainValue(json));
      } while (json.next(']'));
    }
    // The object ends with the args: no other member and nothing after it.
    json.expect('}');
    if (!json.atEnd()) {
      throw JsonCursor.UNEXPECTED;
    }
    return new Call(function, List.copyOf(args));
  }

  /** A string without escapes, small integer, boolean or null; any other value is unexpected. */
  private static JsonNode plainValue(JsonCursor json) {
    return switch (json.peek()) {
      case '"' -> TextNode.valueOf(json.plainString());
      case 't', 'f' -> BooleanNode.valueOf(json.bool());
      case 'n' -> {
        json.nullLiteral();
        yield NullNode.instance;
      }
      default -> IntNode.valueOf(json.smallInt());
    };
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
}
