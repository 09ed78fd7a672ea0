package dev.svc.server.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** conf/kubernetes/deployment.yaml runs svc as spec §1.2, §9 and §12 ask. */
class DeploymentManifestTest {

  @SuppressWarnings("unchecked")
  private static List<HasMetadata> manifests() throws IOException {
    try (InputStream in = Files.newInputStream(Path.of("../conf/kubernetes/deployment.yaml"))) {
      return (List<HasMetadata>) (Object) Serialization.unmarshal(in);
    }
  }

  private static <T> T only(List<HasMetadata> all, Class<T> kind) {
    return all.stream().filter(kind::isInstance).map(kind::cast).findFirst().orElseThrow();
  }

  @Test
  void one_replica_replaced_by_recreate_with_the_state_on_a_volume_and_probes_on_the_health_port() throws IOException {
    List<HasMetadata> all = manifests();
    Deployment deployment = only(all, Deployment.class);
    PodSpec pod = deployment.getSpec().getTemplate().getSpec();
    Container svc = pod.getContainers().get(0);

    assertThat(deployment.getSpec().getReplicas()).isEqualTo(1);
    assertThat(deployment.getSpec().getStrategy().getType()).isEqualTo("Recreate");
    assertThat(pod.getServiceAccountName()).isEqualTo("svc-server");
    String stateDir = svc.getEnv().stream().filter(e -> e.getName().equals("SVC_MESH_STATEDIR"))
        .map(EnvVar::getValue).findFirst().orElseThrow();
    assertThat(svc.getVolumeMounts()).anySatisfy(mount -> {
      assertThat(mount.getName()).isEqualTo("state");
      assertThat(mount.getMountPath()).isEqualTo(stateDir);
    });
    PersistentVolumeClaim claim = only(all, PersistentVolumeClaim.class);
    assertThat(pod.getVolumes()).anySatisfy(volume -> {
      assertThat(volume.getName()).isEqualTo("state");
      assertThat(volume.getPersistentVolumeClaim().getClaimName()).isEqualTo(claim.getMetadata().getName());
    });
    assertThat(svc.getEnv()).anySatisfy(env -> {
      assertThat(env.getName()).isEqualTo("POD_NAMESPACE");
      assertThat(env.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.namespace");
    });
    assertThat(svc.getPorts()).singleElement().satisfies(port -> {
      assertThat(port.getName()).isEqualTo("health");
      assertThat(port.getContainerPort()).isEqualTo(8080);
    });
    assertThat(svc.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/ready");
    assertThat(svc.getReadinessProbe().getHttpGet().getPort().getStrVal()).isEqualTo("health");
    assertThat(svc.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(svc.getLivenessProbe().getHttpGet().getPort().getStrVal()).isEqualTo("health");
  }

  @Test
  void the_network_policy_guards_the_health_port_of_svcs_pod() throws IOException {
    List<HasMetadata> all = manifests();
    Deployment deployment = only(all, Deployment.class);
    NetworkPolicy policy = only(all, NetworkPolicy.class);

    assertThat(policy.getSpec().getPodSelector().getMatchLabels())
        .isEqualTo(deployment.getSpec().getTemplate().getMetadata().getLabels());
    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
    assertThat(policy.getSpec().getIngress()).singleElement().satisfies(rule -> {
      assertThat(rule.getPorts()).singleElement().satisfies(port -> assertThat(port.getPort().getIntVal()).isEqualTo(8080));
      assertThat(rule.getFrom()).isNotEmpty();
    });
    assertThat(all).allSatisfy(object -> {
      if (!(object instanceof io.fabric8.kubernetes.api.model.Namespaced)) {
        return;
      }
      assertThat(object.getMetadata().getNamespace()).isEqualTo("svc-dev");
    });
  }
}
