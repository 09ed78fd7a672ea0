package dev.svc.server.clusterinfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.svc.server.StartException;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.kube.EmbeddedCluster;
import dev.svc.server.kube.KubernetesConnection;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Start-up step 3 (spec §8): explicit and ConfigMap cluster info, and what stops the start. */
@ExtendWith(VertxExtension.class)
class ClusterInfoSourceTest {

  private static final String CA = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==";
  private static final SvcConfig.ConfigMapKeys KEYS =
      new SvcConfig.ConfigMapKeys("apiEndpoint", "caData", "insecure", "kubeconfig");
  private static final SvcConfig.ConfigMapRef REF = new SvcConfig.ConfigMapRef(true, "cluster-info", "kube-public", KEYS);
  private static final String KUBEADM = """
      apiVersion: v1
      kind: Config
      clusters:
      - cluster:
          certificate-authority-data: %s
          server: https://10.0.0.1:6443
        name: ""
      - cluster:
          server: https://second.example:6443
        name: second
      contexts: null
      current-context: ""
      preferences: {}
      users: null
      """.formatted(CA);

  private static SvcConfig.ClusterInfo explicit(String endpoint, String ca, boolean insecure, Map<String, String> labels) {
    return new SvcConfig.ClusterInfo(endpoint, ca, insecure, labels, new SvcConfig.ConfigMapRef(false, "cluster-info",
        "kube-public", KEYS));
  }

  private static ConfigMap map(Map<String, String> data) {
    return new ConfigMapBuilder().withNewMetadata().withName("cluster-info").withNamespace("kube-public").endMetadata()
        .withData(data).build();
  }

  @Test
  void explicit_values_are_echoed_with_sorted_labels() throws Exception {
    ClusterInfo info = ClusterInfoSource.explicit(
        explicit("https://k8s.example:6443", CA, true, Map.of("region", "eu", "env", "prod")), Optional.empty());

    assertThat(info).isEqualTo(new ClusterInfo("https://k8s.example:6443", true, CA, Map.of("env", "prod", "region", "eu")));
    assertThat(JsonMapper.builder().build().writeValueAsString(info)).isEqualTo("{\"server_url\":\"https://k8s.example:6443\","
        + "\"insecure_skip_tls_verify\":true,\"ca_data\":\"" + CA + "\",\"labels\":{\"env\":\"prod\",\"region\":\"eu\"}}");
  }

  @Test
  void no_labels_are_an_empty_object() throws Exception {
    ClusterInfo info = ClusterInfoSource.explicit(explicit("https://k8s.example", "", false, Map.of()), Optional.empty());

    assertThat(JsonMapper.builder().build().writeValueAsString(info))
        .isEqualTo("{\"server_url\":\"https://k8s.example\",\"insecure_skip_tls_verify\":false,\"ca_data\":\"\",\"labels\":{}}");
  }

  @Test
  void no_endpoint_stops_the_start_unless_the_cluster_is_embedded() {
    assertThatThrownBy(() -> ClusterInfoSource.explicit(explicit("", "", false, Map.of()), Optional.empty()))
        .isInstanceOfSatisfying(StartException.class, e -> {
          assertThat(e).hasMessage("no cluster info: clusterInfo.apiEndpoint is empty and the ConfigMap reference is off");
          assertThat(e.help()).startsWith("set clusterInfo.apiEndpoint (--api-endpoint)");
        });
    assertThat(ClusterInfoSource.explicit(explicit("", "", false, Map.of("a", "b")), Optional.of("http://127.0.0.1:1234")))
        .isEqualTo(new ClusterInfo("http://127.0.0.1:1234", false, "", Map.of("a", "b")));
  }

  @Test
  void the_data_keys_give_endpoint_ca_and_insecure() {
    ClusterInfo info = ClusterInfoSource.fromConfigMap(
        map(Map.of("apiEndpoint", "https://k8s.example", "caData", CA, "insecure", "true")), REF, Map.of("env", "x"));

    assertThat(info).isEqualTo(new ClusterInfo("https://k8s.example", true, CA, Map.of("env", "x")));
  }

  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource({"true, true", "1, true", "TRUE, true", "True, true", "yes, false", "tRUE, false", "'', false", "0, false"})
  void insecure_is_true_only_for_the_spellings_of_true(String value, boolean insecure) {
    assertThat(ClusterInfoSource.fromConfigMap(map(Map.of("apiEndpoint", "https://k", "insecure", value)), REF, Map.of())
        .insecureSkipTlsVerify()).isEqualTo(insecure);
  }

  @Test
  void a_kubeadm_map_gives_the_first_cluster_of_its_kubeconfig() {
    assertThat(ClusterInfoSource.fromConfigMap(map(Map.of("kubeconfig", KUBEADM)), REF, Map.of()))
        .isEqualTo(new ClusterInfo("https://10.0.0.1:6443", false, CA, Map.of()));
  }

  @Test
  void the_kubeconfig_key_can_be_renamed() {
    SvcConfig.ConfigMapRef renamed = new SvcConfig.ConfigMapRef(true, "cluster-info", "kube-public",
        new SvcConfig.ConfigMapKeys("apiEndpoint", "caData", "insecure", "admin.conf"));

    assertThat(ClusterInfoSource.fromConfigMap(map(Map.of("admin.conf", KUBEADM)), renamed, Map.of()).serverUrl())
        .isEqualTo("https://10.0.0.1:6443");
  }

  @Test
  void a_map_without_an_endpoint_stops_the_start_naming_the_key() {
    assertThatThrownBy(() -> ClusterInfoSource.fromConfigMap(map(Map.of("caData", CA)), REF, Map.of()))
        .isInstanceOfSatisfying(StartException.class, e -> {
          assertThat(e).hasMessage("configMapRef missing api endpoint: ConfigMap kube-public/cluster-info has no"
              + " `apiEndpoint` nor a cluster in `kubeconfig`");
          assertThat(e.help()).isEqualTo("put the Kubernetes API URL under the data key `apiEndpoint` of"
              + " kube-public/cluster-info, or name the key holding it with clusterInfo.configMapRef.keys.apiEndpoint");
        });
  }

  @Test
  void garbage_in_the_map_stops_the_start() {
    assertThatThrownBy(() -> ClusterInfoSource.fromConfigMap(map(Map.of("kubeconfig", "{{{ not yaml")), REF, Map.of()))
        .isInstanceOf(StartException.class)
        .hasMessageStartingWith("failed to parse kubeconfig from ConfigMap kube-public/cluster-info: ");
    assertThatThrownBy(() -> ClusterInfoSource.fromConfigMap(map(Map.of("kubeconfig", "apiVersion: v1\nkind: Config\n")),
        REF, Map.of()))
        .isInstanceOf(StartException.class)
        .hasMessage("failed to parse kubeconfig from ConfigMap kube-public/cluster-info: it names no cluster");
    assertThatThrownBy(() -> ClusterInfoSource.fromConfigMap(map(Map.of("apiEndpoint", "https://k", "caData", "%%%")),
        REF, Map.of()))
        .isInstanceOf(StartException.class)
        .hasMessageStartingWith("the CA of ConfigMap kube-public/cluster-info isn't base64: ");
  }

  @Test
  void the_map_is_read_from_the_api_and_a_missing_one_stops_the_start(Vertx vertx) throws Exception {
    try (EmbeddedCluster cluster = EmbeddedCluster.start("svc-dev", Clock.systemUTC());
        KubernetesConnection kube = KubernetesConnection.of(vertx, cluster.config(), Duration.ofSeconds(5), "test")) {
      SvcConfig.ClusterInfo config = new SvcConfig.ClusterInfo("", "", false, Map.of("env", "dev"), REF);

      assertThat(failure(ClusterInfoSource.load(config, kube, Optional.empty())))
          .isInstanceOfSatisfying(StartException.class, e -> {
            assertThat(e).hasMessage("failed to read configMapRef ConfigMap kube-public/cluster-info: it doesn't exist");
            assertThat(e.help()).isEqualTo("create it, or point clusterInfo.configMapRef.name and .namespace at the"
                + " right one");
          });

      kube.client().configMaps().inNamespace("kube-public").resource(map(Map.of("kubeconfig", KUBEADM))).create();
      assertThat(ClusterInfoSource.load(config, kube, Optional.empty()).toCompletionStage().toCompletableFuture()
          .get(30, TimeUnit.SECONDS)).isEqualTo(new ClusterInfo("https://10.0.0.1:6443", false, CA, Map.of("env", "dev")));
    }
  }

  private static Throwable failure(Future<?> future) throws Exception {
    try {
      future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }
}
