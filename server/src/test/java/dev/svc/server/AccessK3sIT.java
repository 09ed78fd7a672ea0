package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.server.config.ConfigKey;
import dev.svc.server.kube.SvcSignin;
import dev.svc.server.kube.SvcSigninStatus;
import dev.svc.server.mesh.Caller;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The sign-in flow on a real API server (k3s): the CRD of conf/kubernetes installs, the server starts in
 * {@code kubernetes.mode: cluster} against it, and an issued kubeconfig's token is accepted by the API.
 * Needs Docker; skipped with a printed reason without it.
 */
@ExtendWith({DockerGate.class, VertxExtension.class})
class AccessK3sIT {

  @Test
  void a_signed_in_user_gets_a_kubeconfig_the_cluster_accepts(Vertx vertx, @TempDir Path dir) throws Exception {
    try (K3sContainer k3s = new K3sContainer(DockerImageName.parse("rancher/k3s:v1.31.4-k3s1"))) {
      k3s.start();
      Path kubeconfig = dir.resolve("k3s.yaml");
      Files.writeString(kubeconfig, k3s.getKubeConfigYaml());
      try (KubernetesClient admin = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(k3s.getKubeConfigYaml()))
          .build()) {
        try (InputStream crd = Files.newInputStream(Path.of("../conf/kubernetes/crd-svcsignins.yaml"))) {
          admin.apiextensions().v1().customResourceDefinitions()
              .resource(Serialization.unmarshal(crd, CustomResourceDefinition.class)).create();
        }
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("svc-dev").endMetadata().build())
            .create();
        // fabric8 finds the cluster through KUBECONFIG or this property, as in production.
        System.setProperty("kubeconfig", kubeconfig.toString());
        JsonNode rule = JsonNodeFactory.instance.objectNode().put("role", "view").put("period", "1h");
        FakeMesh mesh = new FakeMesh(new Caller("dana@corp.example", List.of(), Map.of("svc.dev/cap/svc", List.of(rule))));
        SvcServer server = await(SvcServer.create(TestServers.config(Map.of(
            ConfigKey.KUBERNETES_MODE, "cluster",
            ConfigKey.CLUSTER_INFO_API_ENDPOINT, Config.fromKubeconfig(k3s.getKubeConfigYaml()).getMasterUrl(),
            ConfigKey.CLUSTER_INFO_INSECURE_SKIP_TLS_VERIFY, "true")), mesh, TestServers::oneEngine).start());
        try {
          WebClient client = WebClient.create(vertx);
          assertThat(await(client.post(server.apiPort(), "127.0.0.1", "/api/v1alpha1/login").send()).statusCode())
              .isEqualTo(202);
          admin.serviceAccounts().inNamespace("svc-dev").resource(new ServiceAccountBuilder().withNewMetadata()
              .withName("svc-user-dana").endMetadata().build()).create();
          admin.resources(SvcSignin.class).inNamespace("svc-dev").withName("svc-user-dana").editStatus(s -> {
            s.setStatus(new SvcSigninStatus(true, Instant.now().toString(), Instant.now().plus(Duration.ofHours(1)).toString()));
            return s;
          });
          HttpResponse<Buffer> issued = await(client.get(server.apiPort(), "127.0.0.1", "/api/v1alpha1/kubeconfig")
              .putHeader("Accept", "application/yaml").send());
          assertThat(issued.statusCode()).isEqualTo(200);
          try (KubernetesClient user = new KubernetesClientBuilder()
              .withConfig(Config.fromKubeconfig(issued.bodyAsString())).build()) {
            assertThat(user.getKubernetesVersion().getMajor()).isEqualTo("1");
          }
        } finally {
          await(server.stop());
          System.clearProperty("kubeconfig");
        }
      }
    }
  }
}
