package dev.svc.engine.kind;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.engine.EngineException;
import dev.svc.engine.internal.AbiCodec;
import dev.svc.engine.internal.GoQuote;
import dev.svc.engine.internal.Nearest;
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
 * }</pre>
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
    Objects.requireNonNull(reason, "reason");
    if (!reasons.contains(reason)) {
      String suggestion =
          Nearest.nearest(reason, reasons)
              .map(near -> "did you mean " + GoQuote.quote(near) + "? ")
              .orElse("");
      throw new EngineException(
          "decision " + name + " has no reason " + GoQuote.quote(reason),
          suggestion + name + " declares: " + String.join(", ", reasons));
    }
    return new Outcome(name, reason);
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
