package dev.svc.engine.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.engine.EvalEntry;
import dev.svc.engine.EvalFailure;
import dev.svc.engine.EvalResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Reads the module's answer to an eval, {@code {"ok":true, «eval record»}}, straight from its
 * bytes into an {@link EvalResult}: the same records Jackson binds from the same JSON (payloads
 * as the trees {@code readTree} builds), at a fraction of the cost. An evaluation is
 * the library's hot path, and making a Jackson parser and binding three records by reflection
 * took as long as the engine takes to evaluate.
 *
 * <p>It reads only what the module writes: an ok answer, JSON without problems. For anything else
 * ({@code ok:false}, a syntax error, a member of the wrong shape or missing, a control character in
 * a string) {@link #read} returns {@code null} and the caller reads the answer with Jackson, which
 * says what is wrong with it. The bytes are walked with a {@link JsonCursor}.
 *
 * <p><b>Thread safety:</b> one instance per answer; {@link #read} is thread-safe.
 */
final class EvalRecordReader {

  // The members of the three records, by number: names are matched as bytes, not made strings.
  private static final int ID = 0;
  private static final int OK = 1;
  private static final int PAYLOAD = 2;
  private static final int ERROR = 3;
  private static final int POLICY = 4;
  private static final int DECISION = 5;
  private static final int REASON = 6;
  private static final int OUTCOME = 7;
  private static final int TRACE = 8;
  private static final int COLLECT = 9;
  private static final int POSITION = 10;
  private static final int CHAIN = 11;
  private static final int CONDITIONS = 12;
  private static final byte[][] NAMES =
      JsonCursor.names(
          "id", "ok", "payload", "error", "policy", "decision", "reason", "outcome", "trace",
          "collect", "position", "chain", "conditions");

  private final JsonCursor json;

  private EvalRecordReader(byte[] in) {
    this.json = JsonCursor.compact(in);
  }

  /**
   * The eval record of an ok answer.
   *
   * @return the record, or {@code null} when the answer isn't an ok eval record without problems
   */
  static EvalResult read(byte[] answer) {
    try {
      return new EvalRecordReader(answer).answer();
    } catch (JsonCursor.Unexpected | IndexOutOfBoundsException e) {
      return null;
    }
  }

  private EvalResult answer() {
    json.expect('{');
    int name = json.member(NAMES);
    if (name == ID) {
      json.value();
      json.expect(',');
      name = json.member(NAMES);
    }
    if (name != OK || !json.bool()) {
      throw JsonCursor.UNEXPECTED;
    }
    Optional<JsonNode> payload = Optional.empty();
    Optional<EvalFailure> error = Optional.empty();
    String policy = null;
    Optional<String> decision = Optional.empty();
    Optional<String> reason = Optional.empty();
    List<EvalEntry> outcome = null;
    // Absent when the request left it out (EvalOptions.withoutTrace).
    List<EvalEntry> trace = List.of();
    boolean collect = false;
    while (json.next('}')) {
      switch (json.member(NAMES)) {
        case PAYLOAD -> payload = tree();
        case ERROR -> error = Optional.of(error());
        case POLICY -> policy = json.string();
        case DECISION -> decision = Optional.of(json.string());
        case REASON -> reason = Optional.of(json.string());
        case OUTCOME -> outcome = list(this::entry);
        case TRACE -> trace = list(this::entry);
        case COLLECT -> collect = json.bool();
        default -> json.value();
      }
    }
    if (policy == null || outcome == null) {
      throw JsonCursor.UNEXPECTED;
    }
    return new EvalResult(
        payload, error, policy, decision, reason, outcome, trace, collect, Optional.empty());
  }

  private EvalEntry entry() {
    Optional<JsonNode> payload = Optional.empty();
    String decision = null;
    String reason = null;
    Optional<String> policy = Optional.empty();
    Optional<String> position = Optional.empty();
    List<String> chain = List.of();
    List<String> conditions = List.of();
    boolean outcome = false;
    if (json.open('{', '}')) {
      do {
        switch (json.member(NAMES)) {
          case PAYLOAD -> payload = tree();
          case DECISION -> decision = json.string();
          case REASON -> reason = json.string();
          case POLICY -> policy = Optional.of(json.string());
          case POSITION -> position = Optional.of(json.string());
          case CHAIN -> chain = list(json::string);
          case CONDITIONS -> conditions = list(json::string);
          case OUTCOME -> outcome = json.bool();
          default -> json.value();
        }
      } while (json.next('}'));
    }
    if (decision == null || reason == null) {
      throw JsonCursor.UNEXPECTED;
    }
    return new EvalEntry(payload, decision, reason, policy, position, chain, conditions, outcome);
  }

  /** A failure, bound by Jackson: failures are rare, and their records are the richest. */
  private EvalFailure error() {
    JsonNode failure = json.value();
    try {
      return AbiCodec.MAPPER.treeToValue(failure, EvalFailure.class);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw JsonCursor.UNEXPECTED;
    }
  }

  /** A list of what {@code element} reads, in turn. */
  private <T> List<T> list(Supplier<T> element) {
    List<T> out = new ArrayList<>();
    if (json.open('[', ']')) {
      do {
        out.add(element.get());
      } while (json.next(']'));
    }
    return out;
  }

  /** A payload: absent for {@code null}, as Jackson binds an {@code Optional}. */
  private Optional<JsonNode> tree() {
    JsonNode value = json.value();
    return value.isNull() ? Optional.empty() : Optional.of(value);
  }
}
