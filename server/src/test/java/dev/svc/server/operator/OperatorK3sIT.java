package dev.svc.server.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.svc.server.kube.SigninName;
import dev.svc.server.kube.SvcSignin;
import dev.svc.server.kube.SvcSigninSpec;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The operator against a real API server (k3s in Docker): real RBAC, TokenRequest and garbage
 * collection, which the mock lacks. Skipped, with the reason printed, where no Docker engine answers.
 */
@EnabledIf("docker")
class OperatorK3sIT {

  private static final String NAMESPACE = "svc-dev";
  private static K3sContainer k3s;
  private static KubernetesClient admin;
  private static ScheduledExecutorService timers;
  private static SigninController controller;

  static boolean docker() {
    if (DockerClientFactory.instance().isDockerAvailable()) {
      return true;
    }
    System.out.println("SKIPPED OperatorK3sIT: no Docker engine reachable (a docker command may exist, but no"
        + " daemon answers), so no k3s cluster can start");
    return false;
  }

  @BeforeAll
  static void cluster() {
    k3s = new K3sContainer(DockerImageName.parse("rancher/k3s:v1.31.4-k3s1"));
    k3s.start();
    admin = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(k3s.getKubeConfigYaml())).build();
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    OperatorFixture.installCrd(admin);
    await().until(() -> admin.getApiResources(SvcSignin.GROUP + "/" + SvcSignin.VERSION) != null);
    timers = Executors.newSingleThreadScheduledExecutor();
    Clock clock = Clock.systemUTC();
    controller = new SigninController(admin, OperatorSettings.of(NAMESPACE, Set.of("view")), clock,
        Scheduler.of(timers, clock), new OperatorMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), NAMESPACE, clock),
        OperatorFixture.NO_TRACES);
    controller.start();
  }

  @AfterAll
  static void stop() {
    if (controller != null) {
      controller.close();
      timers.shutdownNow();
      admin.close();
    }
    if (k3s != null) {
      k3s.stop();
    }
  }

  private static SvcSignin login(String user) {
    Instant now = Instant.now();
    return admin.resources(SvcSignin.class).inNamespace(NAMESPACE).resource(SvcSignin.of(
        SigninName.of(user).orElseThrow(), NAMESPACE, new SvcSigninSpec(user, "view", "1h0m0s", user + "@corp.example"),
        now, now.plus(Duration.ofHours(1)))).create();
  }

  private static String token(String user) {
    TokenRequest request = new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build();
    return admin.serviceAccounts().inNamespace(NAMESPACE).withName("svc-user-" + user).tokenRequest(request)
        .getStatus().getToken();
  }

  private static KubernetesClient as(String token) {
    return new KubernetesClientBuilder().withConfig(new ConfigBuilder(admin.getConfiguration())
        .withClientCertData(null).withClientKeyData(null).withOauthToken(token).build()).build();
  }

  private static void awaitProvisioned(String user) {
    await().until(() -> {
      SvcSignin signin = admin.resources(SvcSignin.class).inNamespace(NAMESPACE).withName("svc-user-" + user).get();
      return signin != null && signin.statusOrPending().provisioned();
    });
  }

  @Test
  void a_token_minted_before_logout_stops_working_after_it() {
    login("dana");
    awaitProvisioned("dana");
    try (KubernetesClient dana = as(token("dana"))) {
      assertThat(dana.pods().inNamespace("default").list().getItems()).isNotNull();

      admin.resources(SvcSignin.class).inNamespace(NAMESPACE).withName("svc-user-dana").delete();
      await().until(() -> admin.serviceAccounts().inNamespace(NAMESPACE).withName("svc-user-dana").get() == null);

      assertThatThrownBy(() -> dana.pods().inNamespace("default").list())
          .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(401));
    }
  }

  @Test
  void logout_and_an_immediate_login_end_with_a_working_token() {
    login("kim");
    awaitProvisioned("kim");
    admin.resources(SvcSignin.class).inNamespace(NAMESPACE).withName("svc-user-kim").delete();
    await().until(() -> admin.resources(SvcSignin.class).inNamespace(NAMESPACE).withName("svc-user-kim").get() == null);
    SvcSignin fresh = login("kim");
    awaitProvisioned("kim");

    await().until(() -> admin.serviceAccounts().inNamespace(NAMESPACE).withName("svc-user-kim").get() != null);
    assertThat(admin.serviceAccounts().inNamespace(NAMESPACE).withName("svc-user-kim").get().getMetadata()
        .getOwnerReferences().get(0).getUid()).isEqualTo(fresh.getMetadata().getUid());
    try (KubernetesClient kim = as(token("kim"))) {
      assertThat(kim.pods().inNamespace("default").list().getItems()).isNotNull();
    }
  }
}
