package dev.svc.server.operator;

import static dev.svc.server.operator.OperatorFixture.NAMESPACE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.svc.server.health.Liveness;
import dev.svc.server.health.Readiness;
import dev.svc.server.kube.SigninName;
import dev.svc.server.kube.SvcSignin;
import dev.svc.server.kube.SvcSigninSpec;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The operator inside Vert.x, behind leader election on the Lease (spec §1.2, §9). */
@EnableKubernetesMockClient(crud = true)
class OperatorVerticleTest {

  KubernetesClient client;
  KubernetesMockServer server;
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  private static LeaseSettings lease(String identity) {
    return new LeaseSettings(NAMESPACE, identity, Duration.ofSeconds(2), Duration.ofMillis(1500),
        Duration.ofMillis(200));
  }

  private OperatorVerticle operator(String identity, PrometheusMeterRegistry registry) {
    return new OperatorVerticle(client, OperatorSettings.of(NAMESPACE, Set.of()), lease(identity), registry,
        OperatorFixture.NO_TRACES);
  }

  @Test
  void one_replica_leads_and_reconciles_the_other_stands_by_until_the_leader_stops() {
    OperatorFixture.installCrd(client);
    PrometheusMeterRegistry first = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    PrometheusMeterRegistry second = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    OperatorVerticle leader = operator("replica-a", first);
    assertThat(leader.readiness()).isEqualTo(new Readiness(false, "operator not started"));
    String leaderDeployment = vertx.deployVerticle(leader).await();
    await().until(leader::leading);
    OperatorVerticle standby = operator("replica-b", second);
    vertx.deployVerticle(standby).await();

    await().until(() -> !standby.readiness().reason().equals("operator not started"));
    assertThat(standby.readiness()).isEqualTo(new Readiness(false,
        "operator standing by: replica-a holds the Lease controller.access.svc.dev"));
    assertThat(leader.readiness()).isEqualTo(new Readiness(true, "operator reconciling"));
    assertThat(first.get("svc.operator.leader").gauge().value()).isEqualTo(1.0);
    assertThat(second.get("svc.operator.leader").gauge().value()).isZero();
    Lease lease = client.leases().inNamespace(NAMESPACE).withName("controller.access.svc.dev").get();
    assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("replica-a");

    Instant now = Instant.now();
    client.resources(SvcSignin.class).inNamespace(NAMESPACE).resource(SvcSignin.of(SigninName.of("dana").orElseThrow(),
        NAMESPACE, new SvcSigninSpec("dana", "view", "1h0m0s", "dana@corp.example"), now, now.plusSeconds(3600)))
        .create();
    await().until(() -> client.rbac().clusterRoleBindings().withName("svc-user-dana-binding").get() != null);

    vertx.undeploy(leaderDeployment).await();

    await().until(standby::leading);
    assertThat(first.get("svc.operator.leader").gauge().value()).isZero();
    assertThat(second.get("svc.operator.leader").gauge().value()).isEqualTo(1.0);
    client.resources(SvcSignin.class).inNamespace(NAMESPACE).withName("svc-user-dana").delete();
    await().until(() -> client.rbac().clusterRoleBindings().withName("svc-user-dana-binding").get() == null);
  }

  @Test
  void a_replica_that_loses_the_lease_stops_reconciling_and_runs_for_it_again() {
    OperatorFixture.installCrd(client);
    OperatorVerticle operator = operator("replica-a", new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    vertx.deployVerticle(operator).await();
    await().until(operator::leading);

    // Another holder renews the Lease (as a replica would whose clock ran ahead, or an API that
    // answered replica-a's renewals too late): replica-a can't renew within its deadline.
    // replica-a renews every 200 ms, so an edit may meet a newer version (409): edit again then.
    await().ignoreExceptions().until(() -> client.leases().inNamespace(NAMESPACE).withName("controller.access.svc.dev")
        .edit(lease -> {
          lease.getSpec().setHolderIdentity("replica-x");
          lease.getSpec().setRenewTime(ZonedDateTime.now());
          return lease;
        }) != null);
    await().until(() -> !operator.leading());
    assertThat(operator.readiness()).isEqualTo(new Readiness(false,
        "operator standing by: replica-x holds the Lease controller.access.svc.dev"));

    // replica-x never renews: once its Lease runs out, replica-a takes it and reconciles again.
    await().atMost(Duration.ofSeconds(20)).until(operator::leading);
    assertThat(operator.liveness()).isEqualTo(Liveness.ALIVE);
    Instant now = Instant.now();
    client.resources(SvcSignin.class).inNamespace(NAMESPACE).resource(SvcSignin.of(SigninName.of("dana").orElseThrow(),
        NAMESPACE, new SvcSigninSpec("dana", "view", "1h0m0s", "dana@corp.example"), now, now.plusSeconds(3600)))
        .create();
    await().until(() -> client.rbac().clusterRoleBindings().withName("svc-user-dana-binding").get() != null);
  }

  @Test
  void a_controller_that_cant_start_is_a_fatal_failure() {
    OperatorFixture.installCrd(client);
    // svc's service account may not list sign-ins (its ClusterRole not applied, say).
    server.expect().get().withPath("/apis/access.svc.dev/v1alpha1/namespaces/svc-dev/svcsignins?resourceVersion=0")
        .andReturn(403, "svcsignins.access.svc.dev is forbidden").always();
    OperatorVerticle operator = operator("replica-a", new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    vertx.deployVerticle(operator).await();

    await().atMost(Duration.ofSeconds(30)).until(() -> !operator.liveness().alive());
    assertThat(operator.liveness().reason()).startsWith("the operator can't start: the operator's watches didn't start: ");
    assertThat(operator.leading()).isFalse();
  }
}
