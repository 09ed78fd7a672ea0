package dev.svc.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.engine.internal.AbiCodec;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of a {@link Stub}'s calls: the args it answers, one per param of the host function and
 * compared as values after decoding by the params' types, and what a call with them gets.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe (treat the JSON values as read-only).
 *
 * @param args one value per param, in order
 * @param returns what a call with these args returns
 * @param error the message a call with these args fails with
 */
public record StubCall(List<JsonNode> args, Optional<JsonNode> returns, Optional<String> error) {

  /**
   * Checks that exactly one of {@code returns} and {@code error} is given.
   *
   * @param args one value per param
   * @param returns the result
   * @param error the failure's message
   * @throws IllegalArgumentException if both or neither are given
   */
  public StubCall {
    args = List.copyOf(args);
    Objects.requireNonNull(returns, "returns");
    Objects.requireNonNull(error, "error");
    if (returns.isPresent() == error.isPresent()) {
      throw new IllegalArgumentException(
          "a stubbed call needs exactly one of returns and error: the result of a call with its args,"
              + " or the message that call fails with");
    }
  }

  /**
   * An entry whose args get {@code value}.
   *
   * @param args one value per param, any values Jackson can write as JSON
   * @param value the result; {@code null} for JSON null
   * @return the entry
   */
  public static StubCall returning(List<?> args, Object value) {
    return new StubCall(jsonArgs(args), Optional.of(json(value)), Optional.empty());
  }

  /**
   * An entry whose args fail the call with {@code message}.
   *
   * @param args one value per param, any values Jackson can write as JSON
   * @param message the failure's message; not empty
   * @return the entry
   */
  public static StubCall failing(List<?> args, String message) {
    return new StubCall(jsonArgs(args), Optional.empty(), Optional.of(message(message)));
  }

  /** The entry as the request writes it: {@code {args, returns?, error?}}. */
  ObjectNode toJson() {
    ObjectNode out = AbiCodec.MAPPER.createObjectNode();
    ArrayNode list = out.putArray("args");
    args.forEach(list::add);
    returns.ifPresent(value -> out.set("returns", value));
    error.ifPresent(message -> out.put("error", message));
    return out;
  }

  /** {@code value} as JSON; {@code null} is JSON null. */
  static JsonNode json(Object value) {
    return value == null ? NullNode.getInstance() : AbiCodec.MAPPER.valueToTree(value);
  }

  /** A stub's failure message, which can't be empty. */
  static String message(String message) {
    Objects.requireNonNull(message, "message");
    if (message.isEmpty()) {
      throw new IllegalArgumentException("a stub's error needs a message, like \"timeout\"");
    }
    return message;
  }

  private static List<JsonNode> jsonArgs(List<?> args) {
    Objects.requireNonNull(args, "args");
    return args.stream().map(StubCall::json).toList();
  }
}
