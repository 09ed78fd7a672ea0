package dev.svc.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.server.config.ConfigKey;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Start-up steps 3 and 4 (spec §1.3): no cluster, or no cluster info, stops the start with a reason. */
class KubernetesStartTest {

  @Test
  void a_cluster_that_cant_be_reached_stops_the_start(@TempDir Path dir) throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    Path kubeconfig = dir.resolve("config");
    Files.writeString(kubeconfig, """
        apiVersion: v1
        kind: Config
        clusters: [{name: c, cluster: {server: "http://127.0.0.1:%d"}}]
        users: [{name: u, user: {token: t}}]
        contexts: [{name: x, context: {cluster: c, user: u}}]
        current-context: x
        """.formatted(closed));
    // fabric8 finds the cluster through KUBECONFIG or this property, as in production.
    System.setProperty("kubeconfig", kubeconfig.toString());
    try {
      Throwable failure = TestServers.failure(SvcServer.create(TestServers.config(Map.of(
          ConfigKey.KUBERNETES_MODE, "cluster",
          ConfigKey.CLUSTER_INFO_API_ENDPOINT, "https://k8s.example:6443")), new FakeMesh(null), TestServers::oneEngine)
          .start());

      assertThat(failure).isInstanceOfSatisfying(StartException.class, e -> {
        assertThat(e.getMessage()).startsWith("can't reach the Kubernetes API of the cluster at http://127.0.0.1:" + closed);
        assertThat(e.help()).contains("--kubernetes-mode embedded");
      });
    } finally {
      System.clearProperty("kubeconfig");
    }
  }

  @Test
  void no_cluster_info_stops_the_start() {
    // Embedded, the API's own URL would stand in; a ConfigMap that doesn't exist gives none.
    Throwable failure = TestServers.failure(SvcServer.create(TestServers.config(Map.of(
        ConfigKey.CONFIG_MAP_ENABLED, "true")), new FakeMesh(null), TestServers::oneEngine).start());

    assertThat(failure).isInstanceOfSatisfying(StartException.class, e -> assertThat(e)
        .hasMessage("failed to read configMapRef ConfigMap kube-public/cluster-info: it doesn't exist"));
  }
}
