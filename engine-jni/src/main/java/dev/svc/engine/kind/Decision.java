package dev.svc.engine.kind;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.engine.EngineException;
import dev.svc.engine.EvalEntry;
import dev.svc.engine.EvalResult;
import dev.svc.engine.Nearest;
import dev.svc.engine.internal.AbiCodec;
import dev.svc.engine.internal.GoQuote;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A decision of a kind: its name, its reasons and its payload fields.
 *
 * <pre>{@code
 * Decision notify =
 *     Decision.of("notify", "routine", "unrouted").field("channel", Type.STRING, "#alerts");
 * Outcome unrouted = notify.reason("unrouted");
 *
 * EvalResult result = policy.eval(input);
 * Optional<Notice> notice = notify.match(result, Notice.class); // record Notice(String channel)
 * boolean unroutedOnly = unrouted.is(result);
 * }</pre>
 *
 * <p>The helpers read a result's {@link EvalResult#outcome() outcome}. A failed evaluation's
 * outcome is the kind's fallback, which they match like any other: check {@link
 * EvalResult#error()} first where a failure matters. {@link #match(EvalResult)} and {@link
 * Outcome#is(EvalResult)} ask for the single outcome, which the result of a collecting kind without
 * precedence doesn't have: read it with {@link #matchAll(EvalResult)}.
 *
 * <p>Whether the names are identifiers, and the reasons and fields unique, is checked when the kind
 * is built ({@link KindBuilder#build()}), together with everything else.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param name the decision's name
 * @param reasons its reasons in declaration order
 * @param fields its payload fields in declaration order
 */
public record Decision(String name, List<String> reasons, List<PayloadField> fields)
    implements OutcomeRef {

  /**
   * Copies the lists; no part may be null.
   *
   * @param name the decision's name
   * @param reasons its reasons in declaration order
   * @param fields its payload fields in declaration order
   */
  public Decision {
    Objects.requireNonNull(name, "name");
    reasons = List.copyOf(reasons);
    fields = List.copyOf(fields);
  }

  /**
   * A decision with its reasons and no payload.
   *
   * @param name the decision's name, such as {@code notify}
   * @param reasons its reasons in declaration order, such as {@code routine}
   * @return the decision
   */
  public static Decision of(String name, String... reasons) {
    return new Decision(name, List.of(reasons), List.of());
  }

  /**
   * This decision with one more payload field, which has no default: every rule that constructs
   * the decision must give it.
   *
   * @param name the field's name
   * @param type the field's type
   * @return a new decision; this one is unchanged
   */
  public Decision field(String name, Type type) {
    return with(new PayloadField(name, type, Optional.empty()));
  }

  /**
   * This decision with one more payload field that has a default, which a rule may leave out and
   * which the kind's default and conflict outcomes take. The default is written as the JSON value
   * a host would pass for the type: a string for a string or a duration ({@code "1h30m"}) or an
   * enum value, a number, a boolean, a list, or a map with string keys. Whether it fits the type is
   * checked when the kind is built.
   *
   * @param name the field's name
   * @param type the field's type
   * @param defaultValue the default: a {@link JsonNode}, or any value Jackson turns into JSON
   * @return a new decision; this one is unchanged
   * @throws IllegalArgumentException if Jackson can't turn {@code defaultValue} into JSON
   */
  public Decision field(String name, Type type, Object defaultValue) {
    Objects.requireNonNull(defaultValue, "defaultValue");
    JsonNode json;
    try {
      json = AbiCodec.MAPPER.valueToTree(defaultValue);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "the default of field " + name + " can't be written as JSON: " + e.getMessage(), e);
    }
    return with(new PayloadField(name, type, Optional.of(json)));
  }

  /**
   * One of the decision's reasons, as an outcome.
   *
   * @param reason the reason's name
   * @return the outcome {@code name.reason}
   * @throws EngineException {@code decision «name» has no reason "«reason»"} when the decision
   *     doesn't declare it; the help names the nearest declared reason, if one is close, and lists
   *     them all
   */
  public Outcome reason(String reason) {
    return tryReason(reason).orElseThrow(() -> undeclared(reason));
  }

  // The help's did-you-mean is the bindings' own rule (bindings.md §14), not the engine's.
  private EngineException undeclared(String reason) {
    String suggestion =
        Nearest.BINDINGS.to(reason, reasons)
            .map(near -> "did you mean " + GoQuote.quote(near) + "? ")
            .orElse("");
    return new EngineException(
        "decision " + name + " has no reason " + GoQuote.quote(reason),
        suggestion + name + " declares: " + String.join(", ", reasons));
  }

  /**
   * One of the decision's reasons, as an outcome, when the decision declares it: the {@link
   * #reason(String)} that doesn't throw, for a name that may not be a reason, such as one read
   * from configuration.
   *
   * @param reason the reason's name
   * @return the outcome {@code name.reason}; empty when the decision doesn't declare the reason
   */
  public Optional<Outcome> tryReason(String reason) {
    Objects.requireNonNull(reason, "reason");
    return reasons.contains(reason) ? Optional.of(new Outcome(name, reason)) : Optional.empty();
  }

  /**
   * The payload of the result's single outcome, when that is this decision.
   *
   * @param result an eval record of a policy of the kind
   * @return the payload's fields by name (an empty object when the decision has none); empty when
   *     the outcome isn't exactly one entry of this decision, as a ranked collecting kind's with
   *     two entries isn't
   * @throws EngineException {@code match on a collecting kind's result, which has no single
   *     outcome; read it with matchAll} for the result of a collecting kind without precedence, or
   *     of any collecting kind when the result doesn't carry its kind's {@link
   *     EvalResult#shape() shape}
   */
  public Optional<JsonNode> match(EvalResult result) {
    return match(result, JsonNode.class);
  }

  /**
   * The payload of the result's single outcome as {@code type}, when that outcome is this
   * decision. A record with the decision's fields, by the same names, reads it: a duration as a
   * {@link java.time.Duration} or a String, a timestamp as an {@link java.time.Instant} or a
   * String, an enum value as a String or a Java enum with the same constant names, an optional
   * field as an {@link Optional} or a nullable reference.
   *
   * @param result an eval record of a policy of the kind
   * @param type the payload's type
   * @param <P> the payload's type
   * @return the payload; empty when the outcome isn't exactly one entry of this decision
   * @throws EngineException {@code the payload of decision «name» doesn't fit the type asked for:
   *     «why»} when the payload doesn't read as {@code type}; and as {@link #match(EvalResult)}
   *     for a collection
   */
  public <P> Optional<P> match(EvalResult result, Class<P> type) {
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(type, "type");
    ResultReader.requireSingleOutcome(result, "match");
    List<EvalEntry> outcome = result.outcome();
    if (outcome.size() != 1 || !outcome.get(0).decision().equals(name)) {
      return Optional.empty();
    }
    return Optional.of(ResultReader.payload(name, outcome.get(0).payload(), type));
  }

  /**
   * Every entry of this decision in the result's outcome, in outcome order: how a collecting kind,
   * which can grant a decision more than once, is read. Any result reads this way.
   *
   * @param result an eval record of a policy of the kind
   * @return the entries with their payloads' fields by name; empty when none is of this decision
   */
  public List<Matched<JsonNode>> matchAll(EvalResult result) {
    return matchAll(result, JsonNode.class);
  }

  /**
   * Every entry of this decision in the result's outcome, in outcome order, with the payloads
   * read as {@code type} (see {@link #match(EvalResult, Class)}).
   *
   * @param result an eval record of a policy of the kind
   * @param type the payload's type
   * @param <P> the payload's type
   * @return the entries; empty when none is of this decision
   * @throws EngineException {@code the payload of decision «name» doesn't fit the type asked for:
   *     «why»} when a payload doesn't read as {@code type}
   */
  public <P> List<Matched<P>> matchAll(EvalResult result, Class<P> type) {
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(type, "type");
    return result.outcome().stream()
        .filter(entry -> entry.decision().equals(name))
        .map(
            entry ->
                new Matched<>(
                    ResultReader.payload(name, entry.payload(), type),
                    entry.reason(),
                    entry.policy(),
                    entry.position()))
        .toList();
  }

  /** The decision's name, as the kind file writes it. */
  @Override
  public String toString() {
    return name;
  }

  private Decision with(PayloadField field) {
    List<PayloadField> more = new ArrayList<>(fields);
    more.add(field);
    return new Decision(name, reasons, more);
  }

  /**
   * A payload field of a decision.
   *
   * @param name the field's name
   * @param type the field's type
   * @param defaultValue the default as JSON; empty when the field is required
   */
  public record PayloadField(String name, Type type, Optional<JsonNode> defaultValue) {

    /**
     * Checks that every part is given and keeps a copy of the default, so nothing changes it later.
     *
     * @param name the field's name
     * @param type the field's type
     * @param defaultValue the default as JSON; empty when the field is required
     */
    public PayloadField {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
      defaultValue = defaultValue.map(JsonNode::deepCopy);
    }

    /**
     * The default as JSON.
     *
     * @return a copy of the default; empty when the field is required
     */
    @Override
    public Optional<JsonNode> defaultValue() {
      return defaultValue.map(JsonNode::deepCopy);
    }
  }
}
