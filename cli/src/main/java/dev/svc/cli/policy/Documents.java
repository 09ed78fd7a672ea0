package dev.svc.cli.policy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Optional;

/**
 * JSON-or-YAML documents the user hands a command (an eval input, a stubs file): read as JSON first,
 * with numbers kept exactly as written, and as YAML when they aren't JSON.
 */
final class Documents {

  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
      .build();
  private static final ObjectMapper YAML = new YAMLMapper();

  private Documents() {}

  /** A named document's text: a file, or stdin for {@code -} or no name. */
  record Text(String name, String text) {}

  /** The text of {@code path}, or of stdin when it is empty or {@code -}. */
  static Text read(Workspace workspace, Optional<String> path) {
    if (path.isEmpty() || path.get().equals("-")) {
      return new Text(Sources.STDIN, Sources.readStdin(workspace.stdin()));
    }
    String name = Sources.clean(path.get());
    try {
      return new Text(name, Files.readString(workspace.resolve(path.get())));
    } catch (IOException e) {
      throw Sources.unreadable(name, e);
    }
  }

  /** {@code text} as one JSON value; empty when it isn't JSON. */
  static Optional<JsonNode> json(String text) {
    try {
      JsonNode node = JSON.readTree(text);
      return node == null || node.isMissingNode() ? Optional.empty() : Optional.of(node);
    } catch (JsonProcessingException e) {
      return Optional.empty();
    }
  }

  /**
   * The document {@code text} holds.
   *
   * @param what what the document is, for the advice: {@code the input is …}
   * @throws PolicyException if it is empty or neither JSON nor YAML
   */
  static JsonNode parse(Text text, String what) {
    if (text.text().isBlank()) {
      throw new PolicyException(text.name() + " is empty", what);
    }
    try {
      return JSON.readTree(text.text());
    } catch (JsonProcessingException notJson) {
      try {
        JsonNode node = YAML.readTree(text.text());
        if (node == null || node.isMissingNode()) {
          throw new PolicyException(text.name() + " is empty", what);
        }
        return node;
      } catch (JsonProcessingException notYaml) {
        throw new PolicyException(text.name() + " isn't valid JSON or YAML", what)
            .causedBy(notYaml.getOriginalMessage());
      }
    }
  }
}
