package dev.svc.server.clusterinfo;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;
import java.util.TreeMap;

/**
 * How users reach the cluster (access-server spec §4.7, §8): the answer of {@code GET /cluster-info}
 * and the cluster entry of every issued kubeconfig.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param serverUrl the Kubernetes API URL
 * @param insecureSkipTlsVerify clients skip TLS verification
 * @param caData the cluster CA, base64 of PEM; empty when none
 * @param labels free-form labels, sorted by name; empty when none
 */
@JsonPropertyOrder({"server_url", "insecure_skip_tls_verify", "ca_data", "labels"})
public record ClusterInfo(
    @JsonProperty("server_url") String serverUrl,
    @JsonProperty("insecure_skip_tls_verify") boolean insecureSkipTlsVerify,
    @JsonProperty("ca_data") String caData,
    @JsonProperty("labels") Map<String, String> labels) {

  /**
   * Sorts and copies the labels.
   *
   * @param serverUrl the API URL
   * @param insecureSkipTlsVerify skip TLS verification
   * @param caData the CA
   * @param labels the labels
   */
  public ClusterInfo {
    labels = java.util.Collections.unmodifiableMap(new TreeMap<>(labels));
  }
}
