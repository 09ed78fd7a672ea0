package dev.svc.cli.kubeconfig;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.svc.client.ClientException;
import dev.svc.client.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Reads and writes kubeconfig YAML; text that isn't a mapping is refused, never overwritten. */
final class KubeconfigYaml {

  static final YAMLMapper YAML = YAMLMapper.builder()
      .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
      .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
      .build();

  private KubeconfigYaml() {}

  /** The document {@code text} holds, which must be a mapping; an empty text is an empty mapping. */
  static ObjectNode read(byte[] text, String what) {
    if (new String(text, StandardCharsets.UTF_8).isBlank()) {
      return YAML.createObjectNode();
    }
    try {
      JsonNode node = YAML.readTree(text);
      if (node instanceof ObjectNode object) {
        return object;
      }
      throw new ClientException(new Problem(what + " isn't a kubeconfig",
          List.of("check the file: a kubeconfig is a YAML mapping with `clusters`, `users` and `contexts`"),
          List.of("its top level isn't a mapping")));
    } catch (IOException e) {
      throw new ClientException(new Problem(what + " isn't valid YAML",
          List.of("fix the file, or point KUBECONFIG at another one"), List.of(e.getMessage().lines().findFirst().orElse(""))));
    }
  }

  static byte[] write(ObjectNode doc) {
    try {
      return YAML.writeValueAsBytes(doc);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a YAML tree always serializes", e);
    }
  }
}
