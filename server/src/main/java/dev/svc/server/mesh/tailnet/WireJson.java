package dev.svc.server.mesh.tailnet;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Reading the daemon's JSON the way its Go encoder writes it: a member may be absent or
 * {@code null} wherever Go leaves out a zero value or writes a nil slice or map. A member of the
 * wrong type is an error, so an answer this client doesn't understand is refused, never guessed at.
 */
final class WireJson {

  private WireJson() {}

  /** The string member {@code name} of {@code node}; empty when absent or null. */
  static String text(JsonNode node, String name) {
    JsonNode member = member(node, name);
    if (member == null) {
      return "";
    }
    if (!member.isTextual()) {
      throw new IllegalArgumentException("`" + name + "` is not a string");
    }
    return member.textValue();
  }

  /** The boolean member {@code name} of {@code node}; false when absent or null. */
  static boolean bool(JsonNode node, String name) {
    JsonNode member = member(node, name);
    if (member == null) {
      return false;
    }
    if (!member.isBoolean()) {
      throw new IllegalArgumentException("`" + name + "` is not a boolean");
    }
    return member.booleanValue();
  }

  /** The list of strings {@code name} of {@code node}; empty when absent or null. */
  static List<String> texts(JsonNode node, String name) {
    JsonNode member = member(node, name);
    if (member == null) {
      return List.of();
    }
    if (!member.isArray()) {
      throw new IllegalArgumentException("`" + name + "` is not a list");
    }
    List<String> values = new ArrayList<>(member.size());
    for (JsonNode value : member) {
      if (!value.isTextual()) {
        throw new IllegalArgumentException("`" + name + "` holds a value that is not a string");
      }
      values.add(value.textValue());
    }
    return List.copyOf(values);
  }

  /** The object member {@code name} of {@code node}; null when absent or null. */
  static JsonNode object(JsonNode node, String name) {
    JsonNode member = member(node, name);
    if (member != null && !member.isObject()) {
      throw new IllegalArgumentException("`" + name + "` is not an object");
    }
    return member;
  }

  private static JsonNode member(JsonNode node, String name) {
    if (node == null || !node.isObject()) {
      return null;
    }
    JsonNode member = node.get(name);
    return member == null || member.isNull() ? null : member;
  }
}
