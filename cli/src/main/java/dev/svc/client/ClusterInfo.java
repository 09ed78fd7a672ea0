package dev.svc.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cluster's connection details (access-server spec §4.7).
 *
 * @param serverUrl the Kubernetes API URL
 * @param insecureSkipTlsVerify whether clients skip TLS verification
 * @param caData the cluster CA, base64 of PEM; empty when none
 * @param labels free-form labels, sorted by key
 */
public record ClusterInfo(String serverUrl, boolean insecureSkipTlsVerify, String caData, Map<String, String> labels) {

  private static final String WHAT = "cluster info";

  /**
   * Sorts a copy of the labels.
   *
   * @param serverUrl the Kubernetes API URL
   * @param insecureSkipTlsVerify whether clients skip TLS verification
   * @param caData the cluster CA
   * @param labels the labels
   */
  public ClusterInfo {
    labels = Collections.unmodifiableMap(new TreeMap<>(labels));
  }

  /**
   * Reads a cluster-info body.
   *
   * @param response the answer of {@code /cluster-info}
   * @return the cluster info
   * @throws ClientException if the body isn't cluster info
   */
  public static ClusterInfo from(ApiResponse response) {
    JsonNode json = Answers.object(response, WHAT);
    Map<String, String> labels = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = json.path("labels").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> label = it.next();
      labels.put(label.getKey(), label.getValue().asText());
    }
    return new ClusterInfo(Answers.text(json, "server_url", WHAT), json.path("insecure_skip_tls_verify").asBoolean(false),
        json.path("ca_data").asText(""), labels);
  }
}
