package dev.svc.server.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.server.clusterinfo.ClusterInfo;
import dev.svc.server.config.SvcConfig;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issued kubeconfigs (spec §7.1): names from the operator keys, CA left out when insecure or empty. */
class KubeconfigTest {

  private static final SvcConfig.Operator NAMES =
      new SvcConfig.Operator("svc-dev", "svc-cluster", "svc-context-", "svc-user-", List.of());

  @Test
  void an_insecure_cluster_gets_no_ca() {
    Kubeconfig config = Kubeconfig.issue(new ClusterInfo("https://k", true, "Q0E=", Map.of()), NAMES, "dana", "t");

    assertThat(new String(config.json(), StandardCharsets.UTF_8)).isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"Config\","
        + "\"preferences\":{},\"clusters\":[{\"name\":\"svc-cluster\",\"cluster\":{\"server\":\"https://k\","
        + "\"insecure-skip-tls-verify\":true}}],\"users\":[{\"name\":\"svc-user-dana\",\"user\":{\"token\":\"t\"}}],"
        + "\"contexts\":[{\"name\":\"svc-context-dana\",\"context\":{\"cluster\":\"svc-cluster\",\"user\":"
        + "\"svc-user-dana\"}}],\"current-context\":\"svc-context-dana\"}");
  }

  @Test
  void a_cluster_without_a_ca_gets_neither_ca_nor_insecure() {
    Kubeconfig config = Kubeconfig.issue(new ClusterInfo("https://k", false, "", Map.of()), NAMES, "Dana_Smith", "t");

    assertThat(config.clusters().get(0).cluster()).isEqualTo(new Kubeconfig.Cluster("https://k", null, null));
    assertThat(config.currentContext()).isEqualTo("svc-context-Dana_Smith");
  }

  @Test
  void the_yaml_form_is_the_same_document() {
    Kubeconfig config = Kubeconfig.issue(new ClusterInfo("https://k", false, "Q0E=", Map.of()), NAMES, "dana", "t");

    assertThat(new String(config.yaml(), StandardCharsets.UTF_8)).isEqualTo("""
        apiVersion: v1
        kind: Config
        preferences: {}
        clusters:
        - name: svc-cluster
          cluster:
            server: https://k
            certificate-authority-data: Q0E=
        users:
        - name: svc-user-dana
          user:
            token: t
        contexts:
        - name: svc-context-dana
          context:
            cluster: svc-cluster
            user: svc-user-dana
        current-context: svc-context-dana
        """);
  }
}
