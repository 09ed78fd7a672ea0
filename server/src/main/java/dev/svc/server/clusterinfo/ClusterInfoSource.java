package dev.svc.server.clusterinfo;

import dev.svc.server.StartException;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.kube.KubernetesConnection;
import io.fabric8.kubernetes.api.model.Cluster;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.NamedCluster;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import io.vertx.core.Future;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Start-up step 3 (access-server spec §1.3, §8): where the cluster info comes from, read once.
 *
 * <ul>
 *   <li>Explicit mode: the {@code clusterInfo.*} keys. With {@code kubernetes.mode: embedded} and no
 *       endpoint given, the embedded API's own URL, so issued kubeconfigs reach it.
 *   <li>ConfigMap mode ({@code clusterInfo.configMapRef.enabled}): the ConfigMap's data keys, or the
 *       first cluster of a kubeconfig it embeds (kubeadm's {@code kube-public/cluster-info}).
 * </ul>
 *
 * <p>Labels always come from {@code clusterInfo.labels}. Anything missing or malformed stops the
 * start with a {@link StartException} saying what and where.
 *
 * <p><b>Thread safety:</b> stateless and thread-safe.
 */
public final class ClusterInfoSource {

  private static final Set<String> TRUE = Set.of("true", "1", "TRUE", "True");

  private ClusterInfoSource() {}

  /**
   * Reads the cluster info {@code config} points at.
   *
   * @param config the {@code clusterInfo.*} keys, validated by the config loader (exactly-one rule,
   *     base64 CA)
   * @param kube where to read a ConfigMap from
   * @param embeddedUrl the embedded API's URL in {@code kubernetes.mode: embedded}, else empty
   * @return the cluster info; fails with a {@link StartException} when there is none or it is malformed
   */
  public static Future<ClusterInfo> load(SvcConfig.ClusterInfo config, KubernetesConnection kube,
      Optional<String> embeddedUrl) {
    if (config.configMapRef().enabled()) {
      SvcConfig.ConfigMapRef ref = config.configMapRef();
      return kube.call(() -> kube.client().configMaps().inNamespace(ref.namespace()).withName(ref.name()).get())
          .recover(failure -> Future.failedFuture(new StartException(
              "failed to read configMapRef ConfigMap " + where(ref) + ": " + failure.getMessage(),
              "check that the ConfigMap exists and that svc's service account may get it", failure)))
          .map(map -> fromConfigMap(map, ref, config.labels()));
    }
    return Future.succeededFuture(explicit(config, embeddedUrl));
  }

  /** Explicit mode: the keys, or the embedded API's URL when no endpoint is given. */
  static ClusterInfo explicit(SvcConfig.ClusterInfo config, Optional<String> embeddedUrl) {
    if (!config.apiEndpoint().isEmpty()) {
      return new ClusterInfo(config.apiEndpoint(), config.insecureSkipTlsVerify(), config.caData(), config.labels());
    }
    return embeddedUrl.map(url -> new ClusterInfo(url, false, "", config.labels()))
        .orElseThrow(() -> new StartException("no cluster info: clusterInfo.apiEndpoint is empty and the ConfigMap"
            + " reference is off",
            "set clusterInfo.apiEndpoint (--api-endpoint) to the Kubernetes API URL users reach, or set"
                + " clusterInfo.configMapRef.enabled to read it from a ConfigMap", null));
  }

  /** ConfigMap mode, steps 2 to 6 of spec §8.2. */
  static ClusterInfo fromConfigMap(ConfigMap map, SvcConfig.ConfigMapRef ref, Map<String, String> labels) {
    if (map == null) {
      throw new StartException("failed to read configMapRef ConfigMap " + where(ref) + ": it doesn't exist",
          "create it, or point clusterInfo.configMapRef.name and .namespace at the right one", null);
    }
    Map<String, String> data = map.getData() == null ? Map.of() : map.getData();
    SvcConfig.ConfigMapKeys keys = ref.keys();
    String server = data.getOrDefault(keys.apiEndpoint(), "").trim();
    String ca = data.getOrDefault(keys.caData(), "").trim();
    boolean insecure = TRUE.contains(data.getOrDefault(keys.insecure(), ""));
    String embedded = keys.clientconfig().isEmpty() ? "" : data.getOrDefault(keys.clientconfig(), "");
    if (server.isEmpty() && ca.isEmpty() && !embedded.isBlank()) {
      Cluster first = firstCluster(embedded, ref);
      server = Optional.ofNullable(first.getServer()).orElse("").trim();
      ca = Optional.ofNullable(first.getCertificateAuthorityData()).orElse("").trim();
    }
    if (server.isEmpty()) {
      throw new StartException("configMapRef missing api endpoint: ConfigMap " + where(ref) + " has no `"
          + keys.apiEndpoint() + "`" + (keys.clientconfig().isEmpty() ? "" : " nor a cluster in `" + keys.clientconfig() + "`"),
          "put the Kubernetes API URL under the data key `" + keys.apiEndpoint() + "` of " + where(ref)
              + ", or name the key holding it with clusterInfo.configMapRef.keys.apiEndpoint", null);
    }
    checkBase64(ca, ref, keys);
    return new ClusterInfo(server, insecure, ca, labels);
  }

  private static Cluster firstCluster(String kubeconfig, SvcConfig.ConfigMapRef ref) {
    List<NamedCluster> clusters;
    try {
      clusters = KubeConfigUtils.parseConfigFromString(kubeconfig).getClusters();
    } catch (RuntimeException e) {
      throw new StartException("failed to parse kubeconfig from ConfigMap " + where(ref) + ": " + oneLine(e),
          "make `" + ref.keys().clientconfig() + "` hold a kubeconfig with a cluster, as kubeadm's cluster-info does",
          e);
    }
    return Optional.ofNullable(clusters).flatMap(list -> list.stream().findFirst())
        .map(NamedCluster::getCluster)
        .orElseThrow(() -> new StartException("failed to parse kubeconfig from ConfigMap " + where(ref)
            + ": it names no cluster",
            "make `" + ref.keys().clientconfig() + "` hold a kubeconfig with a cluster, as kubeadm's cluster-info does",
            null));
  }

  private static void checkBase64(String ca, SvcConfig.ConfigMapRef ref, SvcConfig.ConfigMapKeys keys) {
    try {
      Base64.getDecoder().decode(ca.replace("\r", "").replace("\n", ""));
    } catch (IllegalArgumentException e) {
      throw new StartException("the CA of ConfigMap " + where(ref) + " isn't base64: " + e.getMessage(),
          "write the cluster's CA certificate (PEM) as base64 under `" + keys.caData() + "`", e);
    }
  }

  private static String where(SvcConfig.ConfigMapRef ref) {
    return ref.namespace() + "/" + ref.name();
  }

  private static String oneLine(Exception e) {
    return String.valueOf(e.getMessage()).replace('\n', ' ');
  }
}
