package dev.svc.server.mesh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One rule of a capability grant (access-server spec §3.2): the ClusterRole to bind, the session
 * length, and the priority that decides between several rules.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param role the ClusterRole's name; empty when the grant gave none (the auth layer refuses it)
 * @param period the session length as the grant wrote it, a Go duration; read only by sign-in
 * @param priority higher wins; 0 when the grant gave none
 */
public record GrantRule(String role, String period, long priority) {

  /**
   * Checks that the texts are given.
   *
   * @param role the ClusterRole's name
   * @param period the session length's text
   * @param priority the priority
   */
  public GrantRule {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(period, "period");
  }

  /**
   * Reads one raw capability value as a rule, with the habits of Go's JSON decoder that grants were
   * first read with: member names match whatever their case, a later member wins over an earlier one,
   * {@code null} leaves a member at its zero value, and unknown members are ignored.
   *
   * @param value one value of the caller's capability list
   * @return the rule
   * @throws IllegalArgumentException if {@code value} isn't a JSON object, or a member has the wrong
   *     type (such as {@code "priority": "10"} or {@code "period": 3600}); the message says which
   */
  public static GrantRule decode(JsonNode value) {
    if (!value.isObject()) {
      throw new IllegalArgumentException("a rule is " + kind(value) + ", not an object such as "
          + "{\"role\": \"view\", \"period\": \"1h\"}");
    }
    String role = "";
    String period = "";
    long priority = 0;
    for (Map.Entry<String, JsonNode> member : value.properties()) {
      JsonNode v = member.getValue();
      if (v.isNull()) {
        continue;
      }
      switch (member.getKey().toLowerCase(Locale.ROOT)) {
        case "role" -> role = text(v, "role");
        case "period" -> period = text(v, "period");
        case "priority" -> {
          if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new IllegalArgumentException("`priority` is " + kind(v) + ", not a whole number");
          }
          priority = v.longValue();
        }
        default -> {
          // Unknown members are ignored, so grants may carry fields of newer versions.
        }
      }
    }
    return new GrantRule(role, period, priority);
  }

  /**
   * The rule as a capability value, the shape a mesh hands out and {@link #decode} reads.
   *
   * @return a JSON object with {@code role}, {@code period} and {@code priority}
   */
  public ObjectNode toJson() {
    return JsonNodeFactory.instance.objectNode().put("role", role).put("period", period).put("priority", priority);
  }

  private static String text(JsonNode v, String member) {
    if (!v.isTextual()) {
      throw new IllegalArgumentException("`" + member + "` is " + kind(v) + ", not a string");
    }
    return v.textValue();
  }

  private static String kind(JsonNode v) {
    return switch (v.getNodeType()) {
      case ARRAY -> "a list";
      case BOOLEAN -> "a boolean";
      case NUMBER -> "a number";
      case OBJECT -> "an object";
      case STRING -> "a string";
      default -> "null";
    };
  }
}
