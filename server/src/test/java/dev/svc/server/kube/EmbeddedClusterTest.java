package dev.svc.server.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** kubernetes.mode embedded: a CRUD API with the definition, the namespace and minted tokens. */
class EmbeddedClusterTest {

  private static final Instant NOW = Instant.parse("2030-01-01T10:00:00Z");

  private static EmbeddedCluster cluster;
  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    cluster = EmbeddedCluster.start("svc-dev", Clock.fixed(NOW, ZoneOffset.UTC));
    client = new KubernetesClientBuilder().withConfig(cluster.config()).build();
  }

  @AfterAll
  static void stop() {
    client.close();
    cluster.close();
  }

  @Test
  void it_has_the_namespace_and_the_sign_in_definition_of_conf() throws Exception {
    assertThat(client.namespaces().withName("svc-dev").get()).isNotNull();
    assertThat(client.apiextensions().v1().customResourceDefinitions().withName(SvcSignin.CRD_NAME).get().getSpec())
        .isEqualTo(SvcSigninManifestTest.crd().getSpec());
    assertThat(cluster.url()).startsWith("http://127.0.0.1:");
  }

  @Test
  void sign_ins_are_stored_with_their_status_subresource() {
    SigninName name = SigninName.of("dana").orElseThrow();
    SvcSignin created = client.resources(SvcSignin.class).inNamespace("svc-dev").resource(SvcSignin.of(name, "svc-dev",
        new SvcSigninSpec("dana", "view", "1h0m0s", "dana@corp.example"), NOW, NOW.plusSeconds(3600))).create();
    client.resources(SvcSignin.class).inNamespace("svc-dev").resource(created).editStatus(s -> {
      s.setStatus(new SvcSigninStatus(true, "2030-01-01T10:00:00Z", "2030-01-01T11:00:00Z"));
      return s;
    });

    SvcSignin read = client.resources(SvcSignin.class).inNamespace("svc-dev").withName("svc-user-dana").get();
    assertThat(read.getSpec()).isEqualTo(new SvcSigninSpec("dana", "view", "1h0m0s", "dana@corp.example"));
    assertThat(read.getStatus()).isEqualTo(new SvcSigninStatus(true, "2030-01-01T10:00:00Z", "2030-01-01T11:00:00Z"));
    assertThat(read.getMetadata().getAnnotations())
        .containsEntry(SvcSignin.LAST_ATTEMPTED, "2030-01-01T10:00:00Z")
        .containsEntry(SvcSignin.VALID_UNTIL, "2030-01-01T11:00:00Z");
  }

  @Test
  void a_service_account_gets_a_minted_token_for_the_time_asked() {
    client.serviceAccounts().inNamespace("svc-dev")
        .resource(new ServiceAccountBuilder().withNewMetadata().withName("svc-user-erin").endMetadata().build()).create();

    TokenRequest issued = client.serviceAccounts().inNamespace("svc-dev").withName("svc-user-erin")
        .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(900L).endSpec().build());

    assertThat(issued.getStatus().getToken()).startsWith("embedded.").hasSizeGreaterThan(40);
    assertThat(issued.getStatus().getExpirationTimestamp()).isEqualTo("2030-01-01T10:15:00Z");
  }

  @Test
  void a_missing_service_account_gets_no_token() {
    assertThatThrownBy(() -> client.serviceAccounts().inNamespace("svc-dev").withName("svc-user-nobody")
        .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(900L).endSpec().build()))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(404));
  }
}
