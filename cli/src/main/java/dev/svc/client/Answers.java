package dev.svc.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;

/** Reads the JSON bodies of successful answers; a body that isn't one is a problem, not a crash. */
final class Answers {

  private static final ObjectMapper JSON = new ObjectMapper();

  private Answers() {}

  /** The body as a JSON object. */
  static JsonNode object(ApiResponse response, String what) {
    try {
      JsonNode node = JSON.readTree(response.body());
      if (node != null && node.isObject()) {
        return node;
      }
    } catch (IOException e) {
      // falls through to the problem below
    }
    throw unreadable(what, "the body isn't a JSON object");
  }

  /** A text field of {@code node}, which must be present. */
  static String text(JsonNode node, String field, String what) {
    JsonNode value = node.path(field);
    if (!value.isTextual()) {
      throw unreadable(what, "`" + field + "` is missing or not a string");
    }
    return value.asText();
  }

  static ClientException unreadable(String what, String why) {
    return new ClientException(new Problem("the server's answer isn't " + what,
        List.of("check that --server and --port name an svc server of this version"), List.of(why)));
  }
}
