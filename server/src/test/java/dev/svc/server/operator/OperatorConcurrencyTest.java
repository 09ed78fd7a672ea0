package dev.svc.server.operator;

import static dev.svc.server.operator.OperatorFixture.NAMESPACE;
import static dev.svc.server.operator.OperatorFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.svc.server.kube.SvcSignin;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Many people signing in, extending and signing out at once while the operator runs. */
@EnableKubernetesMockClient(crud = true)
class OperatorConcurrencyTest {

  private static final int PEOPLE = 200;

  KubernetesClient client;
  private OperatorFixture operator;

  @AfterEach
  void stop() {
    operator.close();
  }

  @Test
  void after_200_parallel_logins_extensions_and_logouts_exactly_the_live_sessions_hold_accounts_and_bindings()
      throws Exception {
    operator = new OperatorFixture(client).start();
    ExecutorService callers = Executors.newFixedThreadPool(8);
    List<Future<?>> calls = new ArrayList<>();
    Set<String> live = new TreeSet<>();
    for (int i = 0; i < PEOPLE; i++) {
      String user = String.format("user%03d", i);
      int kind = i % 4;
      if (kind != 1) {
        live.add("svc-user-" + user);
      }
      calls.add(callers.submit(() -> {
        operator.login(user, "view", "1h0m0s", T0);
        switch (kind) {
          case 1 -> operator.signin("svc-user-" + user).delete(); // logout
          case 2 -> operator.relogin(user, "edit", "2h0m0s", T0); // extension with a role change
          case 3 -> { // reauthenticate: logout, then login again at once
            operator.signin("svc-user-" + user).delete();
            operator.login(user, "view", "1h0m0s", T0);
          }
          default -> { }
        }
        return null;
      }));
    }
    for (Future<?> call : calls) {
      call.get();
    }
    callers.shutdown();

    // Retries after conflicts wait for their back-off: move the clock in small steps, far from any expiry.
    await().until(() -> {
      operator.time.advance(Duration.ofSeconds(1));
      return operator.controller.idle() && converged(live);
    });

    assertThat(names(client.serviceAccounts().inNamespace(NAMESPACE).list().getItems())).isEqualTo(live);
    assertThat(names(client.rbac().clusterRoleBindings().list().getItems()))
        .isEqualTo(live.stream().map(name -> name + "-binding").collect(Collectors.toCollection(TreeSet::new)));
    for (SvcSignin signin : client.resources(SvcSignin.class).inNamespace(NAMESPACE).list().getItems()) {
      String role = signin.getSpec().role();
      assertThat(client.rbac().clusterRoleBindings().withName(signin.getMetadata().getName() + "-binding").get()
          .getRoleRef().getName()).isEqualTo(role);
      assertThat(signin.getStatus().validUntil()).isEqualTo(
          T0.plus(role.equals("edit") ? Duration.ofHours(2) : Duration.ofHours(1)).toString());
    }
  }

  private boolean converged(Set<String> live) {
    List<SvcSignin> signins = client.resources(SvcSignin.class).inNamespace(NAMESPACE).list().getItems();
    return names(signins).equals(live)
        && signins.stream().allMatch(s -> s.getStatus() != null && s.getStatus().provisioned()
            && s.getStatus().validUntil().equals(T0.plus(s.getSpec().role().equals("edit")
                ? Duration.ofHours(2) : Duration.ofHours(1)).toString()))
        && names(client.serviceAccounts().inNamespace(NAMESPACE).list().getItems()).equals(live)
        && client.rbac().clusterRoleBindings().list().getItems().size() == live.size();
  }

  private static Set<String> names(List<? extends HasMetadata> objects) {
    return objects.stream().map(o -> o.getMetadata().getName()).collect(Collectors.toCollection(TreeSet::new));
  }
}
