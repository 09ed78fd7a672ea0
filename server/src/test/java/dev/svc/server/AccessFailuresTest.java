package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.server.config.ConfigKey;
import dev.svc.server.kube.SvcSignin;
import dev.svc.server.mesh.Caller;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sign-in API when the Kubernetes API misbehaves (slow past its timeout, down, conflicting, answering
 * garbage) and when a grant names a role the server may not bind: each gets the spec's status and a
 * clear message before {@code server.writeTimeout}, and the server keeps serving.
 */
@ExtendWith(VertxExtension.class)
class AccessFailuresTest {

  private static final String SIGNIN = "/apis/access.svc.dev/v1alpha1/namespaces/svc-dev/svcsignins/svc-user-dana";

  private FakeMesh mesh;
  private SvcServer server;
  private WebClient client;

  @BeforeEach
  void start(Vertx vertx) {
    mesh = new FakeMesh(dana("view"));
    // Kubernetes calls get half of server.writeTimeout: 1 s here. The operator stays out: these tests
    // script the API's failures and conflicts, which its own writes would add to.
    server = await(SvcServer.create(TestServers.config(Map.of(
        ConfigKey.SERVER_WRITE_TIMEOUT, "2s",
        ConfigKey.OPERATOR_ALLOWED_ROLES, "view,edit")), mesh, TestServers::oneEngine).withoutOperator().start());
    client = WebClient.create(vertx);
  }

  @AfterEach
  void stop() {
    await(server.stop());
  }

  private static Caller dana(String role) {
    JsonNode rule = JsonNodeFactory.instance.objectNode().put("role", role).put("period", "1h");
    return new Caller("dana@corp.example", List.of(), Map.of("svc.dev/cap/svc", List.of(rule)));
  }

  private HttpResponse<Buffer> call(HttpMethod method, String path) {
    return await(client.request(method, server.apiPort(), "127.0.0.1", path).send());
  }

  @Test
  void a_kubernetes_api_slower_than_its_timeout_is_500_before_the_write_timeout() {
    server.embeddedCluster().expect().get().delay(5, TimeUnit.SECONDS).withPath(SIGNIN)
        .andReturn(200, "{}").once();

    HttpResponse<Buffer> response = call(HttpMethod.GET, "/api/v1alpha1/login");

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.bodyAsJsonObject().getString("message")).isEqualTo("Failed to load sign-in request");
    assertThat(response.bodyAsJsonObject().getJsonObject("cause").getString("message")).isNotEmpty();
  }

  @Test
  void a_kubernetes_api_that_is_down_is_500_and_the_server_keeps_serving() {
    server.embeddedCluster().close();

    HttpResponse<Buffer> response = call(HttpMethod.POST, "/api/v1alpha1/login");

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.bodyAsJsonObject().getString("message")).isEqualTo("Failed to load existing sign-in request");
    assertThat(call(HttpMethod.GET, "/api/v1alpha1/cluster-info").statusCode()).isEqualTo(200);
  }

  @Test
  void an_update_made_stale_by_another_writer_is_read_and_written_again() {
    assertThat(call(HttpMethod.POST, "/api/v1alpha1/login").statusCode()).isEqualTo(202);
    conflicts(2);
    mesh.whoIs = Future.succeededFuture(dana("edit"));

    assertThat(call(HttpMethod.POST, "/api/v1alpha1/login").statusCode()).isEqualTo(202);

    try (KubernetesClient kube = new KubernetesClientBuilder().withConfig(server.embeddedCluster().config()).build()) {
      assertThat(kube.resources(SvcSignin.class).inNamespace("svc-dev").withName("svc-user-dana").get().getSpec().role())
          .isEqualTo("edit");
    }
  }

  @Test
  void an_update_that_keeps_conflicting_is_500() {
    assertThat(call(HttpMethod.POST, "/api/v1alpha1/login").statusCode()).isEqualTo(202);
    conflicts(3);

    HttpResponse<Buffer> response = call(HttpMethod.POST, "/api/v1alpha1/login");

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.bodyAsString()).isEqualTo("{\"message\":\"Failed to update existing sign-in request\","
        + "\"cause\":{\"message\":\"Operation cannot be fulfilled on svcsignins.access.svc.dev \\\"svc-user-dana\\\":"
        + " the object has been modified\"}}");
  }

  private void conflicts(int times) {
    server.embeddedCluster().expect().put().withPath(SIGNIN)
        .andReturn(409, new StatusBuilder().withCode(409).withReason("Conflict").withMessage("Operation cannot be"
            + " fulfilled on svcsignins.access.svc.dev \"svc-user-dana\": the object has been modified").build())
        .times(times);
  }

  @Test
  void an_object_that_isnt_a_sign_in_is_500() {
    server.embeddedCluster().expect().get().withPath(SIGNIN)
        .andReturn(200, "{\"apiVersion\":\"access.svc.dev/v1alpha1\",\"kind\":\"SvcSignin\",\"spec\":\"nonsense\","
            + "\"status\":[1,2]}").always();

    for (String path : List.of("/api/v1alpha1/login", "/api/v1alpha1/kubeconfig")) {
      HttpResponse<Buffer> response = call(HttpMethod.GET, path);
      assertThat(response.statusCode()).as(path).isEqualTo(500);
      assertThat(response.bodyAsJsonObject().getString("message")).as(path).isEqualTo("Failed to load sign-in request");
    }
  }

  @Test
  void a_grant_of_a_role_outside_the_allowed_ones_is_403() {
    mesh.whoIs = Future.succeededFuture(dana("cluster-admin"));

    HttpResponse<Buffer> response = call(HttpMethod.POST, "/api/v1alpha1/login");

    assertThat(response.statusCode()).isEqualTo(403);
    assertThat(response.bodyAsString()).isEqualTo("{\"message\":\"Role not allowed\",\"advice\":[\"the grant of user dana"
        + " names the ClusterRole `cluster-admin`, which this server may not bind; ask a tailnet administrator for a"
        + " grant of one of view, edit\"]}");
    String metrics = await(client.get(server.healthPort(), "127.0.0.1", "/metrics").send()).bodyAsString();
    assertThat(metrics).contains(
        "svc_login_attempts_total{cluster_role=\"cluster-admin\",outcome=\"error\",username=\"dana\"} 1.0");
    mesh.whoIs = Future.succeededFuture(dana("edit"));
    assertThat(call(HttpMethod.POST, "/api/v1alpha1/login").statusCode()).isEqualTo(202);
  }
}
