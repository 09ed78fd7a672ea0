package dev.svc.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.engine.internal.AbiCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a host function answers in place of an implementation, as a test file's {@code stubs:} and
 * {@link CompileOptions#withStub(String, Stub)} write it: the answer to calls with particular args
 * ({@link #calls()}, tried in order), and the answer to every other call ({@link #returns()} or
 * {@link #error()}). A call that nothing answers fails with {@code no stubbed call matches
 * «fn»(«args»)}. Values are read by the types the kind declares, as an input is.
 *
 * <pre>{@code
 * Stub owner = Stub.returning("nobody")
 *     .withCall(StubCall.returning(List.of("vault"), "ada"))
 *     .withCall(StubCall.failing(List.of("attic"), "the directory is down"));
 * }</pre>
 *
 * <p><b>Thread safety:</b> immutable and thread-safe (treat the JSON values as read-only).
 *
 * @param returns the result of a call no entry of {@code calls} matches ({@code null} JSON for an
 *     optional's absence)
 * @param error the message a call no entry matches fails with
 * @param calls answers for particular args, first match wins
 */
public record Stub(Optional<JsonNode> returns, Optional<String> error, List<StubCall> calls) {

  /**
   * Checks the shape: at most one of {@code returns} and {@code error}, and at least one of the
   * three.
   *
   * @param returns the result of other calls
   * @param error the message other calls fail with
   * @param calls answers for particular args
   * @throws IllegalArgumentException if both or none of the three are given
   */
  public Stub {
    Objects.requireNonNull(returns, "returns");
    Objects.requireNonNull(error, "error");
    calls = List.copyOf(calls);
    if (returns.isPresent() && error.isPresent()) {
      throw new IllegalArgumentException(
          "a stub either returns a value or fails; give returns or error, not both");
    }
    if (returns.isEmpty() && error.isEmpty() && calls.isEmpty()) {
      throw new IllegalArgumentException(
          "a stub gives no result: give returns for every call, error for a call that fails, or calls"
              + " for particular args");
    }
  }

  /**
   * A stub whose every call returns {@code value}.
   *
   * @param value the result, any value Jackson can write as JSON; {@code null} for JSON null
   * @return the stub
   */
  public static Stub returning(Object value) {
    return new Stub(Optional.of(StubCall.json(value)), Optional.empty(), List.of());
  }

  /**
   * A stub whose every call fails with {@code message}, as the host function failing would.
   *
   * @param message the failure's message; not empty
   * @return the stub
   */
  public static Stub failing(String message) {
    return new Stub(Optional.empty(), Optional.of(StubCall.message(message)), List.of());
  }

  /**
   * A stub that answers only the calls {@code calls} list; any other call fails.
   *
   * @param calls the answers for particular args
   * @return the stub
   */
  public static Stub answering(StubCall... calls) {
    return new Stub(Optional.empty(), Optional.empty(), List.of(calls));
  }

  /**
   * A copy that answers calls with {@code call}'s args as it says, before the entries after it.
   *
   * @param call an answer for particular args
   * @return the new stub
   */
  public Stub withCall(StubCall call) {
    List<StubCall> more = new ArrayList<>(calls);
    more.add(Objects.requireNonNull(call, "call"));
    return new Stub(returns, error, more);
  }

  /** The stub as the request writes it: {@code {returns?, error?, calls?}}, only what is set. */
  ObjectNode toJson() {
    ObjectNode out = AbiCodec.MAPPER.createObjectNode();
    returns.ifPresent(value -> out.set("returns", value));
    error.ifPresent(message -> out.put("error", message));
    if (!calls.isEmpty()) {
      ArrayNode list = out.putArray("calls");
      calls.forEach(call -> list.add(call.toJson()));
    }
    return out;
  }
}
