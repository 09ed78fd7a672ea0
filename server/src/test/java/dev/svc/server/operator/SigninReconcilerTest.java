package dev.svc.server.operator;

import static dev.svc.server.operator.OperatorFixture.NAMESPACE;
import static dev.svc.server.operator.OperatorFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.server.kube.SigninName;
import dev.svc.server.kube.SvcSignin;
import dev.svc.server.kube.SvcSigninSpec;
import dev.svc.server.operator.Outcome.Operation;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One reconcile at a time, without informers: each case run twice, the second run writes nothing. */
@EnableKubernetesMockClient(crud = true)
class SigninReconcilerTest {

  KubernetesMockServer server;
  KubernetesClient client;

  private SigninReconciler reconciler(ManualTime time) {
    return new SigninReconciler(client, NAMESPACE, Set.of(), time, Observed.live(client, NAMESPACE),
        new WarningEvents(client, NAMESPACE, time), new OperatorMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), NAMESPACE, time));
  }

  private List<String> requests() throws InterruptedException {
    List<String> seen = new ArrayList<>();
    for (RecordedRequest request = server.takeRequest(0, TimeUnit.MILLISECONDS); request != null;
        request = server.takeRequest(0, TimeUnit.MILLISECONDS)) {
      seen.add(request.getMethod() + " " + request.getPath());
    }
    return seen;
  }

  private void create(String user, String period, Instant at) {
    client.resources(SvcSignin.class).inNamespace(NAMESPACE).resource(SvcSignin.of(SigninName.of(user).orElseThrow(),
        NAMESPACE, new SvcSigninSpec(user, "view", period, null), at, at.plus(Duration.ofMinutes(45)))).create();
  }

  @Test
  void provisioning_twice_writes_once_and_both_runs_requeue_at_valid_until() throws InterruptedException {
    OperatorFixture.installCrd(client);
    ManualTime time = new ManualTime(T0);
    SigninReconciler reconciler = reconciler(time);
    create("dana", "45m0s", T0);
    requests();

    Outcome first = reconciler.reconcile("svc-user-dana");
    List<String> firstWrites = requests().stream().filter(r -> !r.startsWith("GET ")).toList();
    Outcome second = reconciler.reconcile("svc-user-dana");
    List<String> secondRequests = requests();

    Instant validUntil = T0.plus(Duration.ofMinutes(45));
    assertThat(first).isEqualTo(new Outcome(Operation.PROVISION, Optional.of(validUntil)));
    assertThat(firstWrites).containsExactly(
        "POST /api/v1/namespaces/svc-dev/serviceaccounts",
        "POST /apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
        "PUT /apis/access.svc.dev/v1alpha1/namespaces/svc-dev/svcsignins/svc-user-dana/status");
    assertThat(second).isEqualTo(new Outcome(Operation.NOP, Optional.of(validUntil)));
    assertThat(secondRequests).allMatch(request -> request.startsWith("GET "));
  }

  @Test
  void at_valid_until_less_a_millisecond_nothing_happens_at_valid_until_everything_goes() throws InterruptedException {
    OperatorFixture.installCrd(client);
    ManualTime time = new ManualTime(T0);
    SigninReconciler reconciler = reconciler(time);
    create("dana", "45m0s", T0);
    reconciler.reconcile("svc-user-dana");

    time.advance(Duration.ofMinutes(45).minusMillis(1));
    assertThat(reconciler.reconcile("svc-user-dana").operation()).isEqualTo(Operation.NOP);
    time.advance(Duration.ofMillis(1));
    assertThat(reconciler.reconcile("svc-user-dana")).isEqualTo(Outcome.done(Operation.DEPROVISION));
    requests();
    assertThat(reconciler.reconcile("svc-user-dana")).isEqualTo(Outcome.done(Operation.DEPROVISION_NOT_FOUND));
    assertThat(reconciler.reconcile("svc-user-dana")).isEqualTo(Outcome.done(Operation.DEPROVISION_NOT_FOUND));

    assertThat(client.serviceAccounts().inNamespace(NAMESPACE).list().getItems()).isEmpty();
    assertThat(client.rbac().clusterRoleBindings().list().getItems()).isEmpty();
    assertThat(client.resources(SvcSignin.class).inNamespace(NAMESPACE).list().getItems()).isEmpty();
  }
}
