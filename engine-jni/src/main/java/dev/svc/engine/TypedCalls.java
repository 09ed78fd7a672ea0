package dev.svc.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
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

  private TypedCalls() {}

  static void arity(List<JsonNode> args, int expected) {
    if (args.size() != expected) {
      String noun = expected == 1 ? "argument" : "arguments";
      throw new IllegalArgumentException(
          "expected " + expected + " " + noun + ", got " + args.size());
    }
  }

  static <T> T arg(List<JsonNode> args, int index, Class<T> type) {
    try {
      return AbiCodec.MAPPER.treeToValue(args.get(index), type);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      String reason =
          e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
      throw new IllegalArgumentException("argument " + (index + 1) + ": " + reason, e);
    }
  }

  static JsonNode result(Object value) {
    if (value instanceof Future<?> || value instanceof CompletionStage<?>) {
      throw new IllegalStateException(
          "the result is a " + value.getClass().getSimpleName()
              + "; host functions must be synchronous: return the value itself");
    }
    try {
      return AbiCodec.MAPPER.valueToTree(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "the result can't be encoded as JSON: " + e.getMessage(), e);
    }
  }
}
