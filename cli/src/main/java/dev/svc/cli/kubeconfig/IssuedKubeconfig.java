package dev.svc.cli.kubeconfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.client.ClientException;
import dev.svc.client.Problem;
import java.util.List;

/**
 * A kubeconfig the server issued (access-server spec §7.1): one cluster, one user, one context.
 *
 * @param yaml the text as the server sent it
 * @param cluster the cluster entry, {@code {name, cluster}}
 * @param user the user entry, {@code {name, user}}; holds the token
 * @param context the context entry, {@code {name, context}}
 */
public record IssuedKubeconfig(byte[] yaml, ObjectNode cluster, ObjectNode user, ObjectNode context) {

  /**
   * Reads the server's kubeconfig.
   *
   * @param yaml the body of {@code GET /kubeconfig}
   * @return the kubeconfig's entries
   * @throws ClientException if it isn't a kubeconfig with one cluster, user and context
   */
  public static IssuedKubeconfig parse(byte[] yaml) {
    JsonNode doc = KubeconfigYaml.read(yaml, "the server's kubeconfig");
    return new IssuedKubeconfig(yaml, entry(doc, "clusters"), entry(doc, "users"), entry(doc, "contexts"));
  }

  /**
   * The context's name.
   *
   * @return the name, such as {@code svc-context-dana}
   */
  public String contextName() {
    return context.path("name").asText();
  }

  /**
   * The user entry's name.
   *
   * @return the name, such as {@code svc-user-dana}
   */
  public String userName() {
    return user.path("name").asText();
  }

  private static ObjectNode entry(JsonNode doc, String list) {
    JsonNode first = doc.path(list).path(0);
    if (first instanceof ObjectNode entry && entry.path("name").isTextual() && !entry.path("name").asText().isEmpty()) {
      return entry;
    }
    throw new ClientException(new Problem("the server's kubeconfig has no `" + list + "` entry",
        List.of("check that --server and --port name an svc server of this version"), List.of()));
  }
}
