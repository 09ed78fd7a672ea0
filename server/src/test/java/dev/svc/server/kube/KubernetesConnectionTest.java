package dev.svc.server.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.server.StartException;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Start-up step 4: the API answers, is 1.24 or newer, and serves the sign-in resource. */
@ExtendWith(VertxExtension.class)
class KubernetesConnectionTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  @Test
  void the_embedded_api_passes(Vertx vertx) throws Exception {
    try (EmbeddedCluster cluster = EmbeddedCluster.start("svc-dev", Clock.systemUTC());
        KubernetesConnection connection = KubernetesConnection.of(vertx, cluster.config(), TIMEOUT, "the embedded API")) {
      assertThat(failure(connection.check())).isNull();
    }
  }

  @ParameterizedTest(name = "{0}.{1}")
  @CsvSource(delimiter = '|', value = {
      "1 | 23 | the cluster at X runs Kubernetes 1.23, older than 1.24"
          + " | use Kubernetes 1.24 or newer: svc needs its TokenRequest API",
      "1 | 30 | the cluster at X doesn't serve the resource svcsignins.access.svc.dev"
          + " | install it with `kubectl apply -f conf/kubernetes/crd-svcsignins.yaml`"})
  void an_old_api_or_one_without_the_sign_in_resource_is_refused(String major, String minor, String message,
      String help, Vertx vertx) throws Exception {
    KubernetesMockServer api = mock(major, minor);
    try (KubernetesConnection connection = KubernetesConnection.of(vertx, config(api), TIMEOUT, "the cluster at X")) {
      assertThat(failure(connection.check())).isInstanceOfSatisfying(StartException.class, e -> {
        assertThat(e).hasMessage(message);
        assertThat(e.help()).isEqualTo(help);
      });
    } finally {
      api.destroy();
    }
  }

  @Test
  void an_api_that_is_down_is_refused(Vertx vertx) throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    try (KubernetesConnection connection = KubernetesConnection.of(vertx,
        new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + closed).build(), TIMEOUT, "the cluster at X")) {
      assertThat(failure(connection.check())).isInstanceOfSatisfying(StartException.class, e -> {
        assertThat(e.getMessage()).startsWith("can't reach the Kubernetes API of the cluster at X: ");
        assertThat(e.help()).contains("KUBECONFIG").contains("--kubernetes-mode embedded");
      });
    }
  }

  @ParameterizedTest(name = "{0}.{1} -> {2}")
  @CsvSource({"1, 24, true", "1, 23, false", "1, 30+, true", "1, 29-gke.1, true", "2, 0, true", "0, 0, false",
      "1, '', false", "x, 30, false"})
  void versions_from_1_24_on_are_supported(String major, String minor, boolean supported) {
    assertThat(KubernetesConnection.supported(new VersionInfo.Builder().withMajor(major).withMinor(minor).build()))
        .isEqualTo(supported);
  }

  private static KubernetesMockServer mock(String major, String minor) {
    HashMap<io.fabric8.mockwebserver.ServerRequest, java.util.Queue<io.fabric8.mockwebserver.ServerResponse>> responses =
        new HashMap<>();
    KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
        new KubernetesMixedDispatcher(responses), false, new VersionInfo.Builder().withMajor(major).withMinor(minor).build());
    server.init();
    return server;
  }

  private static io.fabric8.kubernetes.client.Config config(KubernetesMockServer server) {
    return new ConfigBuilder().withMasterUrl(server.url("/")).build();
  }

  private static Throwable failure(Future<?> future) throws InterruptedException {
    try {
      future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("the check didn't complete", e);
    }
  }
}
