package dev.svc.server.access;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.svc.server.clusterinfo.ClusterInfo;
import dev.svc.server.config.SvcConfig;
import java.util.List;
import java.util.Map;

/**
 * An issued kubeconfig (access-server spec §7.1) in the standard {@code v1} list form that kubectl
 * reads, as JSON or YAML: one cluster ({@code operator.clusterName}), one user with the fresh token
 * ({@code operator.userPrefix} + username), one context joining them, made current. The CA is left
 * out when empty or when clients are told to skip TLS verification (they refuse both).
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param apiVersion always {@code v1}
 * @param kind always {@code Config}
 * @param preferences always empty
 * @param clusters the one cluster
 * @param users the one user
 * @param contexts the one context
 * @param currentContext the context's name
 */
@JsonPropertyOrder({"apiVersion", "kind", "preferences", "clusters", "users", "contexts", "current-context"})
public record Kubeconfig(
    @JsonProperty("apiVersion") String apiVersion,
    @JsonProperty("kind") String kind,
    @JsonProperty("preferences") Map<String, String> preferences,
    @JsonProperty("clusters") List<NamedCluster> clusters,
    @JsonProperty("users") List<NamedUser> users,
    @JsonProperty("contexts") List<NamedContext> contexts,
    @JsonProperty("current-context") String currentContext) {

  private static final ObjectMapper JSON = JsonMapper.builder().build();
  private static final ObjectMapper YAML = YAMLMapper.builder(YAMLFactory.builder()
      .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
      .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
      .build()).build();

  /**
   * A named cluster entry.
   *
   * @param name the entry's name
   * @param cluster where the API is
   */
  public record NamedCluster(@JsonProperty("name") String name, @JsonProperty("cluster") Cluster cluster) {}

  /**
   * Where the API is and how to trust it.
   *
   * @param server the API URL
   * @param certificateAuthorityData the CA, base64 of PEM; null to leave out
   * @param insecureSkipTlsVerify true to skip verification; null to leave out
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"server", "certificate-authority-data", "insecure-skip-tls-verify"})
  public record Cluster(
      @JsonProperty("server") String server,
      @JsonProperty("certificate-authority-data") String certificateAuthorityData,
      @JsonProperty("insecure-skip-tls-verify") Boolean insecureSkipTlsVerify) {}

  /**
   * A named user entry.
   *
   * @param name the entry's name
   * @param user the credential
   */
  public record NamedUser(@JsonProperty("name") String name, @JsonProperty("user") User user) {}

  /**
   * The credential.
   *
   * @param token a ServiceAccount token
   */
  public record User(@JsonProperty("token") String token) {}

  /**
   * A named context entry.
   *
   * @param name the entry's name
   * @param context the cluster and user it joins
   */
  public record NamedContext(@JsonProperty("name") String name, @JsonProperty("context") Context context) {}

  /**
   * The cluster and user a context joins; no namespace.
   *
   * @param cluster the cluster entry's name
   * @param user the user entry's name
   */
  public record Context(@JsonProperty("cluster") String cluster, @JsonProperty("user") String user) {}

  /**
   * The kubeconfig of {@code username} with {@code token}.
   *
   * @param cluster where the API is
   * @param names {@code operator.*}: the entries' names
   * @param username the caller's username, unsanitized
   * @param token the freshly minted token
   * @return the kubeconfig
   */
  public static Kubeconfig issue(ClusterInfo cluster, SvcConfig.Operator names, String username, String token) {
    boolean insecure = cluster.insecureSkipTlsVerify();
    String ca = insecure || cluster.caData().isEmpty() ? null : cluster.caData();
    String user = names.userPrefix() + username;
    String context = names.contextPrefix() + username;
    return new Kubeconfig("v1", "Config", Map.of(),
        List.of(new NamedCluster(names.clusterName(), new Cluster(cluster.serverUrl(), ca, insecure ? Boolean.TRUE : null))),
        List.of(new NamedUser(user, new User(token))),
        List.of(new NamedContext(context, new Context(names.clusterName(), user))),
        context);
  }

  /**
   * As JSON.
   *
   * @return UTF-8 JSON
   */
  public byte[] json() {
    return write(JSON);
  }

  /**
   * As YAML.
   *
   * @return UTF-8 YAML
   */
  public byte[] yaml() {
    return write(YAML);
  }

  private byte[] write(ObjectMapper mapper) {
    try {
      return mapper.writeValueAsBytes(this);
    } catch (JsonProcessingException e) {
      // Records of strings always write.
      throw new IllegalStateException("a kubeconfig didn't write", e);
    }
  }
}
