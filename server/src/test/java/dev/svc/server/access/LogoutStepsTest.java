package dev.svc.server.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.server.kube.EmbeddedCluster;
import dev.svc.server.kube.KubernetesConnection;
import dev.svc.server.kube.SvcSignin;
import dev.svc.server.kube.SvcSigninSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** How far a sign-out got, which its span's {@code logout.status} and {@code logout.was_provisioned} tell (§10.3). */
@ExtendWith(VertxExtension.class)
class LogoutStepsTest {

  private static final String NS = "svc-dev";

  private EmbeddedCluster cluster;
  private KubernetesConnection connection;
  private KubernetesClient kube;
  private Signins signins;

  @BeforeEach
  void start(Vertx vertx) {
    cluster = EmbeddedCluster.start(NS, Clock.systemUTC());
    connection = KubernetesConnection.of(vertx, cluster.config(), Duration.ofSeconds(10), "the embedded API");
    kube = new KubernetesClientBuilder().withConfig(cluster.config()).build();
    signins = new Signins(connection, NS, Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    kube.close();
    connection.close();
    cluster.close();
  }

  @Test
  void a_sign_out_that_deletes_the_sign_in_is_success_and_tells_whether_it_was_provisioned() {
    signins.login("dana", "dana@corp.example", "view", "1h");
    Signins.LogoutSteps steps = new Signins.LogoutSteps();

    signins.logout("dana", steps);

    assertThat(steps.status()).isEqualTo("success");
    assertThat(steps.wasProvisioned()).contains(false);
  }

  @Test
  void no_sign_in_is_error_get_status_before_anything_is_known() {
    Signins.LogoutSteps steps = new Signins.LogoutSteps();

    assertThatThrownBy(() -> signins.logout("dana", steps)).isInstanceOf(AccessError.class);

    assertThat(steps.status()).isEqualTo("error_get_status");
    assertThat(steps.wasProvisioned()).isEqualTo(Optional.empty());
  }

  @Test
  void a_period_edited_into_nonsense_is_error_parse_duration() {
    signins.login("dana", "dana@corp.example", "view", "1h");
    kube.resources(SvcSignin.class).inNamespace(NS).withName("svc-user-dana").edit(s -> {
      s.setSpec(new SvcSigninSpec("dana", "view", "banana", "dana@corp.example"));
      return s;
    });
    Signins.LogoutSteps steps = new Signins.LogoutSteps();

    assertThatThrownBy(() -> signins.logout("dana", steps)).isInstanceOf(AccessError.class);

    assertThat(steps.status()).isEqualTo("error_parse_duration");
    assertThat(steps.wasProvisioned()).contains(false);
  }
}
