package dev.svc.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.svc.engine.internal.AbiCodec;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

/**
 * The typed {@link HostFunction}s' argument decoding and result encoding, with the messages of
 * bindings.md §12 ({@code expected 2 arguments, got 1}, {@code argument 2: …}, {@code the result
 * can't be encoded as JSON: …}).
 */
final class TypedCalls {

  /** How a host function's answer starts when its result can't be written (bindings.md §12). */
  static final String UNENCODABLE_RESULT = "the result can't be encoded as JSON: ";

  private TypedCalls() {}

  static void arity(List<JsonNode> args, int expected) {
    if (args.size() != expected) {
      String noun = expected == 1 ? "argument" : "arguments";
      throw new IllegalArgumentException(
          "expected " + expected + " " + noun + ", got " + args.size());
    }
  }

  static <T> T arg(List<JsonNode> args, int index, Class<T> type) {
    JsonNode arg = args.get(index);
    Object plain = plainArg(arg, type);
    if (plain != null) {
      return type.cast(plain);
    }
    try {
      return AbiCodec.MAPPER.treeToValue(arg, type);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      String reason =
          e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
      throw new IllegalArgumentException("argument " + (index + 1) + ": " + reason, e);
    }
  }

  // Jackson's treeToValue makes a parser and a context for each value; these decode as it would.
  private static Object plainArg(JsonNode arg, Class<?> type) {
    if (type == String.class && arg.isTextual()) {
      return arg.textValue();
    }
    if (type == Boolean.class && arg.isBoolean()) {
      return arg.booleanValue();
    }
    if (type == Integer.class && arg.isInt()) {
      return arg.intValue();
    }
    if (type == Long.class && (arg.isInt() || arg.isLong())) {
      return arg.longValue();
    }
    return null;
  }

  static JsonNode result(Object value) {
    if (value instanceof Future<?> || value instanceof CompletionStage<?>) {
      throw new IllegalStateException(
          "the result is a " + value.getClass().getSimpleName()
              + "; host functions must be synchronous: return the value itself");
    }
    JsonNode plain = plainResult(value);
    if (plain != null) {
      return plain;
    }
    try {
      return AbiCodec.MAPPER.valueToTree(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          UNENCODABLE_RESULT + e.getMessage(), e);
    }
  }

  // Jackson's valueToTree writes a value into a token buffer and reads it back; these are the trees
  // it builds.
  private static JsonNode plainResult(Object value) {
    if (value instanceof String text) {
      return TextNode.valueOf(text);
    }
    if (value instanceof Boolean bool) {
      return BooleanNode.valueOf(bool);
    }
    if (value instanceof Integer number) {
      return IntNode.valueOf(number);
    }
    if (value instanceof Long number) {
      return LongNode.valueOf(number);
    }
    return null;
  }
}
