package dev.svc.server.operator;

import static dev.svc.server.operator.OperatorFixture.NAMESPACE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.svc.server.health.Readiness;
import dev.svc.server.kube.SigninName;
import dev.svc.server.kube.SvcSignin;
import dev.svc.server.kube.SvcSigninSpec;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The operator inside Vert.x, behind leader election on the Lease (spec §1.2, §9). */
@EnableKubernetesMockClient(crud = true)
class OperatorVerticleTest {

  KubernetesClient client;
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
}
