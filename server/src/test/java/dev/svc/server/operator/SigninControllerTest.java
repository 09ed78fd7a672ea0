package dev.svc.server.operator;

import static dev.svc.server.operator.OperatorFixture.NAMESPACE;
import static dev.svc.server.operator.OperatorFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.svc.server.kube.SvcSignin;
import dev.svc.server.kube.SvcSigninStatus;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The operator on the CRUD mock with a manual clock: access-server spec §6 and the §13 "Operator" list. */
@EnableKubernetesMockClient(crud = true)
class SigninControllerTest {

  KubernetesMockServer server;
  KubernetesClient client;
  private OperatorFixture operator;

  @AfterEach
  void stop() {
    if (operator != null) {
      operator.close();
    }
  }

  private OperatorFixture start() {
    operator = new OperatorFixture(client).start();
    return operator;
  }

  @Test
  void a_new_signin_gets_an_owned_service_account_a_labelled_binding_and_its_times() {
    start();
    SvcSignin created = operator.login("dana", "admin", "45m0s", T0);

    SvcSignin provisioned = operator.awaitProvisioned("svc-user-dana", Instant.parse("2025-03-04T10:00:00Z"));

    assertThat(provisioned.getStatus()).isEqualTo(
        new SvcSigninStatus(true, "2025-03-04T09:15:00Z", "2025-03-04T10:00:00Z"));
    ServiceAccount account = operator.account("svc-user-dana");
    assertThat(account.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
      assertThat(owner.getUid()).isEqualTo(created.getMetadata().getUid());
      assertThat(owner.getKind()).isEqualTo("SvcSignin");
      assertThat(owner.getApiVersion()).isEqualTo("access.svc.dev/v1alpha1");
      assertThat(owner.getName()).isEqualTo("svc-user-dana");
      assertThat(owner.getController()).isTrue();
    });
    ClusterRoleBinding binding = operator.binding("svc-user-dana-binding");
    assertThat(binding.getMetadata().getLabels()).isEqualTo(Map.of(
        "app.kubernetes.io/managed-by", "svc", "access.svc.dev/signin", "svc-user-dana"));
    assertThat(binding.getMetadata().getOwnerReferences()).isEmpty();
    assertThat(binding.getRoleRef().getApiGroup()).isEqualTo("rbac.authorization.k8s.io");
    assertThat(binding.getRoleRef().getKind()).isEqualTo("ClusterRole");
    assertThat(binding.getRoleRef().getName()).isEqualTo("admin");
    assertThat(binding.getSubjects()).singleElement().satisfies(subject -> {
      assertThat(subject.getKind()).isEqualTo("ServiceAccount");
      assertThat(subject.getName()).isEqualTo("svc-user-dana");
      assertThat(subject.getNamespace()).isEqualTo(NAMESPACE);
    });
    assertThat(operator.registry.scrape())
        .contains("svc_user_signins_total{cluster_role=\"admin\",username=\"dana\"} 1.0");
    assertThat(operator.registry.get("svc.active.user.sessions").tag("cluster_role", "admin").gauge().value())
        .isEqualTo(1.0);
  }

  @Test
  void a_session_ends_at_valid_until_and_not_a_millisecond_before() {
    start();
    operator.login("dana", "view", "45m0s", T0);
    operator.awaitProvisioned("svc-user-dana", T0.plus(Duration.ofMinutes(45)));

    operator.time.advance(Duration.ofMinutes(45).minusMillis(1));
    operator.awaitIdle();
    assertThat(operator.signin("svc-user-dana").get()).isNotNull();
    assertThat(operator.binding("svc-user-dana-binding")).isNotNull();

    operator.time.advance(Duration.ofMillis(1));

    operator.awaitGone("svc-user-dana");
    assertThat(operator.registry.get("svc.active.user.sessions").tag("cluster_role", "view").gauge().value())
        .isZero();
    assertThat(operator.errors()).isZero();
  }

  @Test
  void the_active_gauge_drops_an_expired_session_before_it_is_deleted() {
    start();
    operator.login("dana", "view", "45m0s", T0);
    operator.awaitProvisioned("svc-user-dana", T0.plus(Duration.ofMinutes(45)));
    operator.controller.close();

    operator.time.advance(Duration.ofMinutes(45));

    assertThat(operator.signin("svc-user-dana").get()).isNotNull();
    assertThat(operator.registry.get("svc.active.user.sessions").tag("cluster_role", "view").gauge().value())
        .isZero();
  }

  @Test
  void an_extension_moves_valid_until_and_the_session_ends_at_the_new_time() {
    start();
    operator.login("dana", "view", "45m0s", T0);
    operator.awaitProvisioned("svc-user-dana", T0.plus(Duration.ofMinutes(45)));

    Instant later = T0.plus(Duration.ofMinutes(30));
    operator.time.advance(Duration.ofMinutes(30));
    operator.relogin("dana", "view", "1h0m0s", later);
    SvcSignin extended = operator.awaitProvisioned("svc-user-dana", later.plus(Duration.ofHours(1)));

    assertThat(extended.getStatus().signedIn()).isEqualTo("2025-03-04T09:45:00Z");
    operator.time.advance(Duration.ofMinutes(20)); // past the first valid_until
    operator.awaitIdle();
    assertThat(operator.signin("svc-user-dana").get()).isNotNull();
    assertThat(operator.binding("svc-user-dana-binding")).isNotNull();
    assertThat(operator.registry.scrape())
        .contains("svc_user_signins_total{cluster_role=\"view\",username=\"dana\"} 2.0");

    operator.time.advance(Duration.ofMinutes(40));
    operator.awaitGone("svc-user-dana");
  }

  @Test
  void a_role_change_recreates_the_binding_with_the_new_role() {
    start();
    operator.login("dana", "view", "45m0s", T0);
    operator.awaitProvisioned("svc-user-dana", T0.plus(Duration.ofMinutes(45)));
    String before = operator.binding("svc-user-dana-binding").getMetadata().getUid();

    operator.time.advance(Duration.ofMinutes(1));
    operator.relogin("dana", "edit", "45m0s", T0.plus(Duration.ofMinutes(1)));
    operator.awaitProvisioned("svc-user-dana", T0.plus(Duration.ofMinutes(46)));

    ClusterRoleBinding binding = operator.binding("svc-user-dana-binding");
    assertThat(binding.getRoleRef().getName()).isEqualTo("edit");
    assertThat(binding.getMetadata().getUid()).isNotEqualTo(before);
  }

  @Test
  void logout_removes_the_binding_and_service_account_and_missing_ones_are_no_error() {
    start();
    operator.login("dana", "view", "45m0s", T0);
    operator.awaitProvisioned("svc-user-dana", T0.plus(Duration.ofMinutes(45)));
    operator.client.serviceAccounts().inNamespace(NAMESPACE).withName("svc-user-dana").delete();

    operator.signin("svc-user-dana").delete();

    operator.awaitGone("svc-user-dana");
    assertThat(operator.errors()).isZero();
  }

  @Test
  void a_service_account_of_an_earlier_signin_is_pointed_at_the_current_one() {
    ServiceAccount stale = new ServiceAccountBuilder().withNewMetadata()
        .withName("svc-user-dana").withNamespace(NAMESPACE)
        .withLabels(Map.of("app.kubernetes.io/managed-by", "svc", "access.svc.dev/signin", "svc-user-dana"))
        .addNewOwnerReference().withApiVersion("access.svc.dev/v1alpha1").withKind("SvcSignin")
          .withName("svc-user-dana").withUid("uid-of-the-signin-before").withController(true).endOwnerReference()
        .endMetadata().build();
    client.serviceAccounts().inNamespace(NAMESPACE).resource(stale).create();
    start();

    SvcSignin created = operator.login("dana", "view", "45m0s", T0);
    operator.awaitProvisioned("svc-user-dana", T0.plus(Duration.ofMinutes(45)));

    assertThat(operator.account("svc-user-dana").getMetadata().getOwnerReferences())
        .extracting(OwnerReference::getUid).containsExactly(created.getMetadata().getUid());
  }

  @Test
  void a_hand_deleted_service_account_or_binding_comes_back() {
    start();
    operator.login("dana", "view", "45m0s", T0);
    operator.awaitProvisioned("svc-user-dana", T0.plus(Duration.ofMinutes(45)));

    client.serviceAccounts().inNamespace(NAMESPACE).withName("svc-user-dana").delete();
    await().until(() -> operator.account("svc-user-dana") != null);
    client.rbac().clusterRoleBindings().withName("svc-user-dana-binding").delete();
    await().until(() -> operator.binding("svc-user-dana-binding") != null);

    operator.awaitIdle();
    assertThat(operator.binding("svc-user-dana-binding").getRoleRef().getName()).isEqualTo("view");
  }

  @Test
  void an_unparseable_period_is_a_warning_event_and_nothing_else() {
    start();
    operator.login("dana", "view", "45m0s", T0);
    operator.awaitProvisioned("svc-user-dana", T0.plus(Duration.ofMinutes(45)));
    operator.signin("svc-user-dana").edit(signin -> {
      signin.getSpec();
      signin.setSpec(new dev.svc.server.kube.SvcSigninSpec("dana", "view", "forever", "dana@corp.example"));
      return signin;
    });

    await().until(() -> operator.warnings("InvalidValidityPeriod").size() == 1);
    operator.awaitIdle();
    long reconciles = operator.reconciles("svc-user-dana");
    operator.time.advance(Duration.ofDays(1));
    operator.awaitIdle();

    assertThat(operator.reconciles("svc-user-dana")).as("no requeue").isEqualTo(reconciles);
    assertThat(operator.signin("svc-user-dana").get()).as("left alone").isNotNull();
    assertThat(operator.warnings("InvalidValidityPeriod")).singleElement().satisfies(event -> {
      assertThat(event.getType()).isEqualTo("Warning");
      assertThat(event.getInvolvedObject().getName()).isEqualTo("svc-user-dana");
      assertThat(event.getMessage()).startsWith("the validity_period `forever` of svc-user-dana isn't a duration");
    });
    assertThat(operator.errors()).isZero();
  }

  @Test
  void an_unparseable_valid_until_is_a_warning_event_and_nothing_else() {
    start();
    SvcSignin created = operator.login("dana", "view", "45m0s", T0);
    operator.controller.close();
    // The first controller may have provisioned it before it closed: start from no ServiceAccount.
    client.serviceAccounts().inNamespace(NAMESPACE).withName("svc-user-dana").delete();
    created = operator.signin("svc-user-dana").get();
    created.setStatus(new SvcSigninStatus(true, "2025-03-04T09:15:00Z", "soon"));
    client.resources(SvcSignin.class).inNamespace(NAMESPACE).resource(created).updateStatus();
    operator.close();
    operator = new OperatorFixture(client, Set.of(), OperatorFixture.NEVER, OperatorFixture.NEVER,
        OperatorFixture.NO_TRACES).start();

    await().until(() -> operator.warnings("InvalidValidUntil").size() == 1);
    operator.awaitIdle();
    long reconciles = operator.reconciles("svc-user-dana");
    operator.time.advance(Duration.ofDays(1));
    operator.awaitIdle();

    assertThat(operator.reconciles("svc-user-dana")).as("no requeue").isEqualTo(reconciles);
    assertThat(operator.account("svc-user-dana")).isNull();
    assertThat(operator.errors()).isZero();
  }

  @Test
  void a_role_outside_the_allow_list_is_never_bound() {
    operator = new OperatorFixture(client, Set.of("view"), OperatorFixture.NEVER, OperatorFixture.NEVER,
        OperatorFixture.NO_TRACES).start();

    operator.login("dana", "cluster-admin", "45m0s", T0);
    operator.login("kim", "view", "45m0s", T0);

    operator.awaitProvisioned("svc-user-kim", T0.plus(Duration.ofMinutes(45)));
    await().until(() -> operator.warnings("RoleNotAllowed").size() == 1);
    operator.awaitIdle();
    assertThat(operator.binding("svc-user-dana-binding")).isNull();
    assertThat(operator.signin("svc-user-dana").get().statusOrPending().provisioned()).isFalse();
    assertThat(operator.warnings("RoleNotAllowed").get(0).getMessage())
        .isEqualTo("the role `cluster-admin` of svc-user-dana isn't in operator.allowedRoles [view]: it is not bound;"
            + " grant an allowed role or add it to operator.allowedRoles");
  }

  @Test
  void a_binding_or_service_account_of_that_name_not_made_by_svc_is_left_alone() {
    client.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder()
        .withNewMetadata().withName("svc-user-dana-binding").endMetadata()
        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "cluster-admin")
        .addNewSubject().withKind("User").withName("someone").endSubject()
        .build()).create();
    start();

    operator.login("dana", "view", "45m0s", T0);

    await().until(() -> operator.warnings("BindingNotManaged").size() == 1);
    operator.awaitIdle();
    assertThat(operator.binding("svc-user-dana-binding").getRoleRef().getName()).isEqualTo("cluster-admin");
    assertThat(operator.signin("svc-user-dana").get().statusOrPending().provisioned()).isFalse();
  }

  @Test
  void the_sweep_deletes_labelled_bindings_without_a_signin_at_start_and_every_ten_minutes() {
    client.rbac().clusterRoleBindings().resource(orphan("svc-user-gone")).create();
    client.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder()
        .withNewMetadata().withName("someone-elses").endMetadata()
        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "view").build()).create();
    operator = new OperatorFixture(client, Set.of(), OperatorFixture.NEVER, OperatorSettings.SWEEP_EVERY,
        OperatorFixture.NO_TRACES).start();

    assertThat(operator.binding("svc-user-gone-binding")).isNull();
    assertThat(operator.binding("someone-elses")).isNotNull();

    client.rbac().clusterRoleBindings().resource(orphan("svc-user-later")).create();
    operator.time.advance(Duration.ofMinutes(10).minusMillis(1));
    assertThat(operator.binding("svc-user-later-binding")).isNotNull();
    operator.time.advance(Duration.ofMillis(1));
    assertThat(operator.binding("svc-user-later-binding")).isNull();
  }

  private static ClusterRoleBinding orphan(String signin) {
    return new ClusterRoleBindingBuilder()
        .withNewMetadata().withName(signin + "-binding")
          .withLabels(Map.of("app.kubernetes.io/managed-by", "svc", "access.svc.dev/signin", signin)).endMetadata()
        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "view")
        .build();
  }

  @Test
  void a_failing_api_is_retried_with_growing_back_off_and_nothing_is_lost() {
    server.expect().post().withPath("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings")
        .andReturn(500, "etcd is unavailable").times(2);
    start();

    operator.login("dana", "view", "45m0s", T0);

    await().until(() -> operator.errors() == 1.0);
    operator.awaitIdle();
    operator.time.advance(OperatorSettings.BACKOFF_BASE.minusMillis(1));
    operator.awaitIdle();
    assertThat(operator.errors()).as("no retry before the back-off").isEqualTo(1.0);
    operator.time.advance(Duration.ofMillis(1));
    await().until(() -> operator.errors() == 2.0);
    operator.awaitIdle();
    operator.time.advance(OperatorSettings.BACKOFF_BASE.multipliedBy(2).minusMillis(1));
    operator.awaitIdle();
    assertThat(operator.errors()).as("the second back-off is twice the first").isEqualTo(2.0);
    operator.time.advance(Duration.ofMillis(1));

    operator.awaitProvisioned("svc-user-dana", T0.plus(Duration.ofMinutes(45)));
    assertThat(operator.binding("svc-user-dana-binding")).isNotNull();
  }

  @Test
  void an_api_that_times_out_mid_reconcile_is_retried() {
    server.expect().put().withPath("/apis/access.svc.dev/v1alpha1/namespaces/svc-dev/svcsignins/svc-user-dana/status")
        .andReturn(504, "the request timed out").once();
    start();

    operator.login("dana", "view", "45m0s", T0);

    await().until(() -> operator.errors() == 1.0);
    assertThat(operator.account("svc-user-dana")).as("made before the failure").isNotNull();
    operator.time.advance(OperatorSettings.BACKOFF_BASE);
    operator.awaitProvisioned("svc-user-dana", T0.plus(Duration.ofMinutes(45)));
  }

  @Test
  void a_resync_reconciles_every_cached_signin() {
    operator = new OperatorFixture(client, Set.of(), Duration.ofMinutes(10), OperatorFixture.NEVER,
        OperatorFixture.NO_TRACES).start();
    operator.login("dana", "view", "45m0s", T0);
    operator.awaitProvisioned("svc-user-dana", T0.plus(Duration.ofMinutes(45)));
    long before = operator.reconciles("svc-user-dana");

    operator.time.advance(Duration.ofMinutes(10));

    await().until(() -> operator.reconciles("svc-user-dana") == before + 1);
  }
}
