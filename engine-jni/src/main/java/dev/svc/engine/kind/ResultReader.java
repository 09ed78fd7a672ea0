package dev.svc.engine.kind;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.engine.EngineException;
import dev.svc.engine.EvalResult;
import dev.svc.engine.internal.AbiCodec;
import java.util.Optional;

/**
 * Reads eval results through a kind's handles (bindings.md §14): the guard against asking a
 * collection for its single outcome, and payloads decoded into the type a host asks for.
 */
final class ResultReader {

  private ResultReader() {}

  /**
   * Refuses the result of a collecting kind without precedence, whose outcome is every decision
   * that fired rather than one. The kind's shape says so; without one, the record's {@code collect}
   * does, which also refuses a ranked collecting kind's result the kind didn't mark.
   *
   * @param method the helper asked, {@code match} or {@code is}, for the message
   */
  static void requireSingleOutcome(EvalResult result, String method) {
    boolean unranked = result.shape().map(s -> s.collect() && !s.ranked()).orElse(result.collect());
    if (unranked) {
      throw new EngineException(
          method
              + " on a collecting kind's result, which has no single outcome; read it with"
              + " matchAll",
          "a collecting kind applies every decision that fired; with precedence, the top rank"
              + " reads with match");
    }
  }

  /**
   * {@code payload} as {@code type}; an absent payload is an empty object. Every creator property
   * of the type must be in the payload and a primitive can't take a null, so a type that names a
   * field the decision doesn't have, or makes an optional field a primitive, doesn't fit.
   */
  static <P> P payload(String decision, Optional<JsonNode> payload, Class<P> type) {
    // Jackson reads an absent Optional<JsonNode> as a JSON null, not as empty.
    JsonNode fields = payload.filter(p -> !p.isNull()).orElseGet(AbiCodec.MAPPER::createObjectNode);
    try {
      return AbiCodec.MAPPER
          .reader()
          .with(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
          .with(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .treeToValue(fields, type);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      String why = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
      throw new EngineException(
          "the payload of decision " + decision + " doesn't fit the type asked for: " + why,
          "give the type the decision's fields, with the same names and types; a duration or"
              + " timestamp is a String",
          e);
    }
  }
}
