package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.svc.server.config.ConfigKey;
import dev.svc.server.kube.SvcSignin;
import dev.svc.server.kube.SvcSigninSpec;
import dev.svc.server.kube.SvcSigninStatus;
import dev.svc.server.mesh.Caller;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sign-in API (access-server spec §4, checklists of §13) against the real router and the embedded
 * Kubernetes API; the test plays the operator by writing status and ServiceAccounts itself.
 */
@ExtendWith(VertxExtension.class)
class AccessApiTest {

  private static final String CAP = "svc.dev/cap/svc";
  private static final String NS = "svc-dev";
  private static final String CA = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==";
  private static final String SIGNINS = "/apis/access.svc.dev/v1alpha1/namespaces/svc-dev/svcsignins";
  private static final ObjectMapper JSON = new ObjectMapper();

  private static FakeMesh mesh;
  private static SvcServer server;
  private static WebClient client;
  private static KubernetesClient kube;

  @BeforeAll
  static void start(Vertx vertx) {
    mesh = new FakeMesh(dana("view", "1h"));
    server = await(SvcServer.create(TestServers.config(Map.of(
        ConfigKey.CLUSTER_INFO_API_ENDPOINT, "https://k8s.corp.example:6443",
        ConfigKey.CLUSTER_INFO_CA_DATA, CA,
        ConfigKey.CLUSTER_INFO_LABELS, "region=eu,env=staging",
        ConfigKey.API_RETRY_AFTER_SECONDS, "3",
        ConfigKey.OPERATOR_CLUSTER_NAME, "corp",
        ConfigKey.OPERATOR_CONTEXT_PREFIX, "ctx-",
        ConfigKey.OPERATOR_USER_PREFIX, "u-")), mesh, TestServers::oneEngine).withoutOperator().start());
    client = WebClient.create(vertx);
    kube = new KubernetesClientBuilder().withConfig(server.embeddedCluster().config()).build();
  }

  @AfterAll
  static void stop() {
    kube.close();
    await(server.stop());
  }

  @AfterEach
  void forget() {
    mesh.whoIs = Future.succeededFuture(dana("view", "1h"));
    kube.resources(SvcSignin.class).inNamespace(NS).delete();
    kube.serviceAccounts().inNamespace(NS).delete();
  }

  private static Caller caller(String login, String role, String period) {
    JsonNode rule = JsonNodeFactory.instance.objectNode().put("role", role).put("period", period);
    return new Caller(login, List.of(), Map.of(CAP, List.of(rule)));
  }

  private static Caller dana(String role, String period) {
    return caller("dana@corp.example", role, period);
  }

  private static HttpResponse<Buffer> call(HttpMethod method, String path, String accept) {
    HttpRequest<Buffer> request = client.request(method, server.apiPort(), "127.0.0.1", path);
    if (accept != null) {
      request.putHeader("Accept", accept);
    }
    return await(request.send());
  }

  private static HttpResponse<Buffer> call(HttpMethod method, String path) {
    return call(method, path, null);
  }

  private static SvcSignin signin(String name) {
    return kube.resources(SvcSignin.class).inNamespace(NS).withName(name).get();
  }

  /** The operator's part: the ServiceAccount and the provisioned status. */
  private static void provision(String name, Instant signedIn, Instant validUntil) {
    kube.serviceAccounts().inNamespace(NS)
        .resource(new ServiceAccountBuilder().withNewMetadata().withName(name).endMetadata().build()).createOr(
            io.fabric8.kubernetes.client.dsl.NonDeletingOperation::update);
    kube.resources(SvcSignin.class).inNamespace(NS).withName(name).editStatus(s -> {
      s.setStatus(new SvcSigninStatus(true, signedIn.toString(), validUntil.toString()));
      return s;
    });
  }

  /** Dana signs in and the operator provisions the session for the window given. */
  private static void signedIn(Instant signedIn, Instant validUntil) {
    assertThat(call(HttpMethod.POST, "/api/v1alpha1/login").statusCode()).isEqualTo(202);
    provision("svc-user-dana", signedIn, validUntil);
  }

  private static void assertError(HttpResponse<Buffer> response, int status, String body) {
    assertThat(response.statusCode()).isEqualTo(status);
    assertThat(response.getHeader("Content-Type")).isEqualTo("application/json; charset=utf-8");
    assertThat(response.bodyAsString()).isEqualTo(body);
  }

  private static Instant until(HttpResponse<Buffer> response) {
    return Instant.parse(response.bodyAsJsonObject().getString("until"));
  }

  // ---- POST /login

  @Test
  void a_sign_in_is_accepted_and_written_pending() {
    Instant before = Instant.now();
    HttpResponse<Buffer> response = call(HttpMethod.POST, "/api/v1alpha1/login");

    assertThat(response.statusCode()).isEqualTo(202);
    assertThat(response.getHeader("Content-Type")).isEqualTo("application/json; charset=utf-8");
    JsonObject body = response.bodyAsJsonObject();
    assertThat(body.fieldNames()).containsExactly("username", "role", "until");
    assertThat(body.getString("username")).isEqualTo("dana");
    assertThat(body.getString("role")).isEqualTo("view");
    assertThat(body.getString("until")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    assertThat(until(response)).isCloseTo(before.plus(Duration.ofHours(1)), within(2, java.time.temporal.ChronoUnit.SECONDS));
    SvcSignin stored = signin("svc-user-dana");
    assertThat(stored.getSpec()).isEqualTo(new SvcSigninSpec("dana", "view", "1h0m0s", "dana@corp.example"));
    assertThat(stored.getMetadata().getAnnotations()).containsEntry(SvcSignin.VALID_UNTIL, body.getString("until"));
    assertThat(Instant.parse(stored.getMetadata().getAnnotations().get(SvcSignin.LAST_ATTEMPTED)))
        .isCloseTo(before, within(2, java.time.temporal.ChronoUnit.SECONDS));
    assertThat(stored.getStatus()).isEqualTo(SvcSigninStatus.PENDING);
  }

  @Test
  void a_sign_in_again_replaces_spec_and_annotations_and_keeps_the_status() {
    call(HttpMethod.POST, "/api/v1alpha1/login");
    Instant validUntil = Instant.now().plus(Duration.ofMinutes(50)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    provision("svc-user-dana", validUntil.minus(Duration.ofHours(1)), validUntil);
    mesh.whoIs = Future.succeededFuture(dana("admin", "45m"));

    HttpResponse<Buffer> response = call(HttpMethod.POST, "/api/v1alpha1/login");

    assertThat(response.statusCode()).isEqualTo(202);
    assertThat(response.bodyAsJsonObject().getString("role")).isEqualTo("admin");
    SvcSignin stored = signin("svc-user-dana");
    assertThat(stored.getSpec()).isEqualTo(new SvcSigninSpec("dana", "admin", "45m0s", "dana@corp.example"));
    assertThat(stored.getMetadata().getAnnotations())
        .containsEntry(SvcSignin.VALID_UNTIL, response.bodyAsJsonObject().getString("until"));
    assertThat(stored.getStatus().provisioned()).isTrue();
    assertThat(stored.getStatus().validUntil()).isEqualTo(validUntil.toString());
  }

  @Test
  void a_sign_in_after_expiry_is_provisioned_again() {
    call(HttpMethod.POST, "/api/v1alpha1/login");
    Instant past = Instant.now().minus(Duration.ofMinutes(5)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    provision("svc-user-dana", past.minus(Duration.ofHours(1)), past);

    assertThat(call(HttpMethod.POST, "/api/v1alpha1/login").statusCode()).isEqualTo(202);

    assertThat(signin("svc-user-dana").getStatus()).isEqualTo(SvcSigninStatus.PENDING);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"10m, 10m0s", "1h30m, 1h30m0s", "1.5h, 1h30m0s", "6h, 6h0m0s"})
  void periods_of_10_minutes_or_more_are_accepted(String period, String stored) {
    mesh.whoIs = Future.succeededFuture(dana("view", period));

    assertThat(call(HttpMethod.POST, "/api/v1alpha1/login").statusCode()).isEqualTo(202);

    assertThat(signin("svc-user-dana").getSpec().validityPeriod()).isEqualTo(stored);
  }

  @Test
  void a_period_under_10_minutes_is_422() {
    mesh.whoIs = Future.succeededFuture(dana("view", "5m"));

    assertError(call(HttpMethod.POST, "/api/v1alpha1/login"), 422,
        "{\"message\":\"`period` may not specify a duration less than 10 minutes\","
            + "\"advice\":[\"raise the period of the grant for user dana to 10m or more; it is 5m\"]}");
    assertThat(signin("svc-user-dana")).isNull();
  }

  @Test
  void a_period_that_isnt_a_duration_is_500() {
    mesh.whoIs = Future.succeededFuture(dana("view", "garbage"));

    assertError(call(HttpMethod.POST, "/api/v1alpha1/login"), 500,
        "{\"message\":\"Error parsing duration\",\"advice\":[\"the grant's `period` must be a duration such as 1h or"
            + " 45m\"],\"cause\":{\"message\":\"`garbage` isn't a duration\"}}");
  }

  @Test
  void a_create_refused_as_not_found_is_404_and_other_refusals_500() {
    server.embeddedCluster().expect().post().withPath(SIGNINS)
        .andReturn(404, new StatusBuilder().withCode(404).withReason("NotFound")
            .withMessage("namespaces \"svc-dev\" not found").build()).once();
    server.embeddedCluster().expect().post().withPath(SIGNINS)
        .andReturn(500, new StatusBuilder().withCode(500).withMessage("etcdserver: request timed out").build()).once();

    assertError(call(HttpMethod.POST, "/api/v1alpha1/login"), 404,
        "{\"message\":\"Error signing in user\",\"cause\":{\"message\":\"namespaces \\\"svc-dev\\\" not found\"}}");
    assertError(call(HttpMethod.POST, "/api/v1alpha1/login"), 500,
        "{\"message\":\"Error signing in user\",\"cause\":{\"message\":\"etcdserver: request timed out\"}}");
  }

  @Test
  void a_username_is_made_a_kubernetes_name() {
    mesh.whoIs = Future.succeededFuture(caller("Dana_Smith@corp.example", "view", "1h"));

    HttpResponse<Buffer> response = call(HttpMethod.POST, "/api/v1alpha1/login");

    assertThat(response.statusCode()).isEqualTo(202);
    assertThat(response.bodyAsJsonObject().getString("username")).isEqualTo("Dana_Smith");
    assertThat(signin("svc-user-dana-smith").getSpec().username()).isEqualTo("Dana_Smith");
  }

  @Test
  void a_username_without_letters_is_400() {
    mesh.whoIs = Future.succeededFuture(caller("__@corp.example", "view", "1h"));

    assertError(call(HttpMethod.POST, "/api/v1alpha1/login"), 400,
        "{\"message\":\"Username cannot be mapped to a Kubernetes name\",\"advice\":[\"the username `__` needs a"
            + " letter or digit, and at most 54 characters\"]}");
  }

  @Test
  void a_username_too_long_for_the_signin_label_is_400_before_anything_is_written() {
    String username = "d".repeat(55);
    mesh.whoIs = Future.succeededFuture(caller(username + "@corp.example", "view", "1h"));

    assertError(call(HttpMethod.POST, "/api/v1alpha1/login"), 400,
        "{\"message\":\"Username cannot be mapped to a Kubernetes name\",\"advice\":[\"the username `" + username
            + "` needs a letter or digit, and at most 54 characters\"]}");
    assertThat(kube.resources(SvcSignin.class).inNamespace(NS).list().getItems()).isEmpty();
  }

  @Test
  void a_sign_in_of_another_login_name_on_the_same_object_is_409() {
    call(HttpMethod.POST, "/api/v1alpha1/login");
    mesh.whoIs = Future.succeededFuture(caller("dana@other.example", "admin", "1h"));

    assertError(call(HttpMethod.POST, "/api/v1alpha1/login"), 409,
        "{\"message\":\"Sign-in name collision\",\"advice\":[\"the sign-in svc-user-dana belongs to another login"
            + " name; ask an administrator to end that session (kubectl delete signin svc-user-dana)\"]}");
    assertThat(signin("svc-user-dana").getSpec().role()).isEqualTo("view");
  }

  @Test
  void sign_in_attempts_are_counted_by_outcome() {
    mesh.whoIs = Future.succeededFuture(caller("erin@corp.example", "edit", "1h"));
    call(HttpMethod.POST, "/api/v1alpha1/login");
    mesh.whoIs = Future.succeededFuture(caller("erin@corp.example", "edit", "1m"));
    call(HttpMethod.POST, "/api/v1alpha1/login");
    mesh.whoIs = Future.succeededFuture(new Caller("erin@corp.example", List.of(), Map.of()));
    call(HttpMethod.POST, "/api/v1alpha1/login");

    String metrics = await(client.get(server.healthPort(), "127.0.0.1", "/metrics").send()).bodyAsString();
    assertThat(metrics)
        .contains("svc_login_attempts_total{cluster_role=\"edit\",outcome=\"success\",username=\"erin\"} 1.0")
        .contains("svc_login_attempts_total{cluster_role=\"edit\",outcome=\"error\",username=\"erin\"} 1.0")
        .contains("svc_login_attempts_total{cluster_role=\"unknown\",outcome=\"forbidden\",username=\"unknown\"}");
  }

  @Test
  void a_caller_without_a_grant_gets_the_auth_layers_403_in_the_apis_error_shape() {
    mesh.whoIs = Future.succeededFuture(new Caller("dana@corp.example", List.of(), Map.of()));

    for (String path : List.of("/api/v1alpha1/login", "/api/v1alpha1/logout")) {
      assertError(call(HttpMethod.POST, path), 403, "{\"message\":\"User not authorized\",\"advice\":[\"ask a tailnet"
          + " administrator to grant dana the capability `svc.dev/cap/svc`\"]}");
    }
    assertThat(call(HttpMethod.GET, "/api/v1alpha1/cluster-info").statusCode()).isEqualTo(403);
    HttpResponse<Buffer> kubeconfig = call(HttpMethod.GET, "/api/v1alpha1/kubeconfig");
    assertThat(kubeconfig.statusCode()).isEqualTo(403);
    assertThat(kubeconfig.getHeader("Retry-After")).isEqualTo("3");
  }

  @Test
  void a_request_through_the_public_ingress_is_403_in_the_apis_error_shape() {
    HttpResponse<Buffer> answer = await(client.request(HttpMethod.POST, server.apiPort(), "127.0.0.1",
        "/api/v1alpha1/login").putHeader("Tailscale-Funnel-Request", "?1").send());

    assertError(answer, 403, "{\"message\":\"Unauthorized request from Funnel\",\"advice\":[\"call the API over"
        + " the tailnet; the public ingress can't reach it\"]}");
  }

  @Test
  void a_failed_who_is_is_500_with_the_lookup_error_as_the_cause() {
    mesh.whoIs = Future.failedFuture(new IllegalStateException("tailscaled refused whois (404): no match for IP:port"));

    assertError(call(HttpMethod.POST, "/api/v1alpha1/login"), 500, "{\"message\":\"Error getting WhoIs\","
        + "\"advice\":[\"call the API over the tailnet; if you do, ask the server's operator to check its mesh node\"],"
        + "\"cause\":{\"message\":\"tailscaled refused whois (404): no match for IP:port\"}}");
  }

  @Test
  void a_tagged_device_is_400_in_the_apis_error_shape() {
    JsonNode rule = JsonNodeFactory.instance.objectNode().put("role", "view").put("period", "1h");
    mesh.whoIs = Future.succeededFuture(new Caller("dana@corp.example", List.of("tag:ci"), Map.of(CAP, List.of(rule))));

    assertError(call(HttpMethod.POST, "/api/v1alpha1/login"), 400, "{\"message\":\"tagged nodes not (yet) supported\","
        + "\"advice\":[\"call from a device signed in as a person; tagged devices such as [tag:ci] aren't admitted\"]}");
  }

  @Test
  void a_rule_that_cant_be_decoded_is_400_with_the_decode_error_as_the_cause() {
    JsonNode rule = JsonNodeFactory.instance.objectNode().put("role", "view").put("priority", "10");
    mesh.whoIs = Future.succeededFuture(new Caller("dana@corp.example", List.of(), Map.of(CAP, List.of(rule))));

    assertError(call(HttpMethod.POST, "/api/v1alpha1/login"), 400, "{\"message\":\"Error unmarshaling api capability"
        + " map\",\"advice\":[\"check the grant syntax of `svc.dev/cap/svc` for user dana\"],"
        + "\"cause\":{\"message\":\"`priority` is a string, not a whole number\"}}");
  }

  @Test
  void duplicate_priorities_are_400_in_the_apis_error_shape() {
    JsonNode view = JsonNodeFactory.instance.objectNode().put("role", "view").put("priority", 5);
    JsonNode edit = JsonNodeFactory.instance.objectNode().put("role", "edit").put("priority", 5);
    mesh.whoIs = Future.succeededFuture(new Caller("dana@corp.example", List.of(), Map.of(CAP, List.of(view, edit))));

    assertError(call(HttpMethod.POST, "/api/v1alpha1/login"), 400, "{\"message\":\"Multiple capability rules with"
        + " the same priority found\",\"advice\":[\"give every rule of `svc.dev/cap/svc` for user dana a distinct"
        + " priority; 5 is given twice\"]}");
  }

  @Test
  void an_empty_role_is_400_in_the_apis_error_shape() {
    mesh.whoIs = Future.succeededFuture(dana("", "1h"));

    assertError(call(HttpMethod.POST, "/api/v1alpha1/login"), 400, "{\"message\":\"Capability rule has no role\","
        + "\"advice\":[\"give the rule of priority 0 of `svc.dev/cap/svc` a role: the ClusterRole to bind\"]}");
  }

  // ---- GET /login

  @Test
  void a_provisioned_session_is_200_with_the_stored_until() {
    signedIn(Instant.parse("2030-01-01T10:00:00Z"), Instant.parse("2099-01-01T11:00:00Z"));

    HttpResponse<Buffer> response = call(HttpMethod.GET, "/api/v1alpha1/login");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.getHeader("Retry-After")).isNull();
    assertThat(response.bodyAsString()).isEqualTo("{\"username\":\"dana\",\"role\":\"view\",\"until\":\"2099-01-01T11:00:00Z\"}");
  }

  @Test
  void a_pending_session_is_202_with_retry_after_and_until_from_now() {
    call(HttpMethod.POST, "/api/v1alpha1/login");
    Instant before = Instant.now();

    HttpResponse<Buffer> response = call(HttpMethod.GET, "/api/v1alpha1/login");

    assertThat(response.statusCode()).isEqualTo(202);
    assertThat(response.getHeader("Retry-After")).isEqualTo("3");
    assertThat(until(response)).isCloseTo(before.plus(Duration.ofHours(1)), within(2, java.time.temporal.ChronoUnit.SECONDS));
  }

  @Test
  void no_session_is_401_with_the_not_found_cause() {
    assertError(call(HttpMethod.GET, "/api/v1alpha1/login"), 401,
        "{\"message\":\"User not signed in\",\"advice\":[\"run `svc login` first\"],"
            + "\"cause\":{\"message\":\"svcsignins.access.svc.dev \\\"svc-user-dana\\\" not found\"}}");
  }

  @Test
  void an_expired_session_is_401() {
    signedIn(Instant.parse("2020-01-01T10:00:00Z"), Instant.parse("2020-01-01T11:00:00Z"));

    assertError(call(HttpMethod.GET, "/api/v1alpha1/login"), 401, "{\"message\":\"User not signed in\",\"advice\":"
        + "[\"your session expired at 2020-01-01T11:00:00Z; sign in again with `svc login`\"]}");
  }

  @Test
  void a_period_edited_into_nonsense_is_500() {
    call(HttpMethod.POST, "/api/v1alpha1/login");
    kube.resources(SvcSignin.class).inNamespace(NS).withName("svc-user-dana").edit(s -> {
      s.setSpec(new SvcSigninSpec("dana", "view", "banana", "dana@corp.example"));
      return s;
    });

    assertError(call(HttpMethod.GET, "/api/v1alpha1/login"), 500, "{\"message\":\"Error parsing duration\",\"advice\":"
        + "[\"the sign-in's `spec.validity_period` must be a duration such as 1h or 45m\"],"
        + "\"cause\":{\"message\":\"`banana` isn't a duration\"}}");
  }

  @Test
  void a_spec_edited_away_is_500_not_a_crash() {
    call(HttpMethod.POST, "/api/v1alpha1/login");
    kube.resources(SvcSignin.class).inNamespace(NS).withName("svc-user-dana").edit(s -> {
      s.setSpec(null);
      return s;
    });

    assertError(call(HttpMethod.GET, "/api/v1alpha1/login"), 500, "{\"message\":\"Failed to load sign-in request\","
        + "\"advice\":[\"the sign-in svc-user-dana has no spec; sign in again with `svc login`\"]}");
  }

  // ---- GET /kubeconfig

  @Test
  void a_provisioned_session_gets_a_kubeconfig_in_the_standard_list_form() throws IOException {
    signedIn(Instant.now(), Instant.now().plus(Duration.ofHours(1)));

    HttpResponse<Buffer> response = call(HttpMethod.GET, "/api/v1alpha1/kubeconfig");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.getHeader("Content-Type")).isEqualTo("application/json; charset=utf-8");
    assertThat(response.getHeader("Retry-After")).isNull();
    JsonNode config = JSON.readTree(response.bodyAsString());
    String token = config.at("/users/0/user/token").asText();
    assertThat(token).startsWith("embedded.");
    assertThat(response.bodyAsString()).isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"Config\",\"preferences\":{},"
        + "\"clusters\":[{\"name\":\"corp\",\"cluster\":{\"server\":\"https://k8s.corp.example:6443\","
        + "\"certificate-authority-data\":\"" + CA + "\"}}],"
        + "\"users\":[{\"name\":\"u-dana\",\"user\":{\"token\":\"" + token + "\"}}],"
        + "\"contexts\":[{\"name\":\"ctx-dana\",\"context\":{\"cluster\":\"corp\",\"user\":\"u-dana\"}}],"
        + "\"current-context\":\"ctx-dana\"}");
  }

  @ParameterizedTest
  @ValueSource(strings = {"application/yaml", "text/yaml", "application/x-yaml",
      "text/html;q=0.9, application/yaml", "application/json;q=0.2, text/yaml;q=0.8"})
  void yaml_is_answered_when_accept_prefers_it(String accept) throws IOException {
    signedIn(Instant.now(), Instant.now().plus(Duration.ofHours(1)));

    HttpResponse<Buffer> response = call(HttpMethod.GET, "/api/v1alpha1/kubeconfig", accept);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.getHeader("Content-Type")).isEqualTo("application/yaml");
    JsonNode config = new YAMLMapper().readTree(response.bodyAsString());
    assertThat(config.at("/clusters/0/cluster/server").asText()).isEqualTo("https://k8s.corp.example:6443");
    assertThat(config.at("/current-context").asText()).isEqualTo("ctx-dana");
  }

  @ParameterizedTest
  @ValueSource(strings = {"application/json", "*/*", "application/json, application/yaml;q=0.5", "text/html"})
  void json_is_answered_otherwise(String accept) {
    signedIn(Instant.now(), Instant.now().plus(Duration.ofHours(1)));

    assertThat(call(HttpMethod.GET, "/api/v1alpha1/kubeconfig", accept).getHeader("Content-Type"))
        .isEqualTo("application/json; charset=utf-8");
  }

  @Test
  void kubectl_reads_both_forms(@TempDir Path dir) throws Exception {
    Assumptions.assumeTrue(kubectl(dir, "version", "--client").exit == 0,
        "SKIPPED: no kubectl on PATH; scripts/setup installs Debian's kubernetes-client");
    signedIn(Instant.now(), Instant.now().plus(Duration.ofHours(1)));

    for (String accept : List.of("application/json", "application/yaml")) {
      Path file = dir.resolve("issued-" + accept.replace('/', '-'));
      Files.write(file, call(HttpMethod.GET, "/api/v1alpha1/kubeconfig", accept).body().getBytes());
      for (List<String> args : List.of(List.of("config", "view", "--kubeconfig", file.toString(), "-o", "json", "--raw"),
          List.of("config", "view", "--kubeconfig", file.toString(), "-o", "json", "--raw", "--minify"))) {
        Run run = kubectl(dir, args.toArray(String[]::new));
        assertThat(run.exit).as(accept + " " + args + ": " + run.output).isZero();
        JsonNode viewed = JSON.readTree(run.output);
        assertThat(viewed.at("/clusters/0/name").asText()).isEqualTo("corp");
        assertThat(viewed.at("/clusters/0/cluster/server").asText()).isEqualTo("https://k8s.corp.example:6443");
        assertThat(viewed.at("/clusters/0/cluster/certificate-authority-data").asText()).isEqualTo(CA);
        assertThat(viewed.at("/users/0/name").asText()).isEqualTo("u-dana");
        assertThat(viewed.at("/users/0/user/token").asText()).startsWith("embedded.");
        assertThat(viewed.at("/contexts/0/name").asText()).isEqualTo("ctx-dana");
        assertThat(viewed.at("/contexts/0/context/cluster").asText()).isEqualTo("corp");
        assertThat(viewed.at("/contexts/0/context/user").asText()).isEqualTo("u-dana");
        assertThat(viewed.at("/current-context").asText()).isEqualTo("ctx-dana");
      }
    }
  }

  @Test
  void a_pending_session_is_202_with_an_empty_body_and_retry_after() {
    call(HttpMethod.POST, "/api/v1alpha1/login");

    HttpResponse<Buffer> response = call(HttpMethod.GET, "/api/v1alpha1/kubeconfig");

    assertThat(response.statusCode()).isEqualTo(202);
    assertThat(response.getHeader("Retry-After")).isEqualTo("3");
    assertThat(response.body()).isNull();
  }

  @Test
  void no_session_and_an_expired_one_are_401_with_retry_after() {
    HttpResponse<Buffer> missing = call(HttpMethod.GET, "/api/v1alpha1/kubeconfig");
    assertThat(missing.statusCode()).isEqualTo(401);
    assertThat(missing.getHeader("Retry-After")).isEqualTo("3");
    assertThat(missing.bodyAsJsonObject().getString("message")).isEqualTo("User not signed in");

    signedIn(Instant.parse("2020-01-01T10:00:00Z"), Instant.parse("2020-01-01T11:00:00Z"));
    HttpResponse<Buffer> expired = call(HttpMethod.GET, "/api/v1alpha1/kubeconfig");
    assertThat(expired.statusCode()).isEqualTo(401);
    assertThat(expired.getHeader("Retry-After")).isEqualTo("3");
  }

  @Test
  void a_token_refused_is_500_with_retry_after() {
    signedIn(Instant.now(), Instant.now().plus(Duration.ofHours(1)));
    server.embeddedCluster().expect().post().withPath("/api/v1/namespaces/svc-dev/serviceaccounts/svc-user-dana/token")
        .andReturn(403, new StatusBuilder().withCode(403).withMessage("serviceaccounts \"svc-user-dana\" is forbidden")
            .build()).once();

    HttpResponse<Buffer> response = call(HttpMethod.GET, "/api/v1alpha1/kubeconfig");

    assertError(response, 500, "{\"message\":\"Failed to generate token\",\"advice\":[\"try again; if it keeps"
        + " failing, tell the administrator of svc\"],\"cause\":{\"message\":\"serviceaccounts \\\"svc-user-dana\\\" is"
        + " forbidden\"}}");
    assertThat(response.getHeader("Retry-After")).isEqualTo("3");
  }

  @ParameterizedTest(name = "session left {0} s -> token {1} s")
  @CsvSource({"3600, 3600", "601, 601", "599, 600", "60, 600"})
  void a_token_lives_as_long_as_the_session_and_at_least_600_seconds(long left, long seconds) {
    call(HttpMethod.POST, "/api/v1alpha1/login");
    Instant now = Instant.now();
    provision("svc-user-dana", now, now.plusSeconds(left + 1));
    AtomicReference<Long> asked = new AtomicReference<>();
    server.embeddedCluster().expect().post().withPath("/api/v1/namespaces/svc-dev/serviceaccounts/svc-user-dana/token")
        .andReply(201, (RecordedRequest r) -> {
          TokenRequest in = Serialization.unmarshal(r.getUtf8Body(), TokenRequest.class);
          asked.set(in.getSpec().getExpirationSeconds());
          in.setStatus(new io.fabric8.kubernetes.api.model.authentication.TokenRequestStatus("2099-01-01T00:00:00Z", "t"));
          return in;
        }).once();

    assertThat(call(HttpMethod.GET, "/api/v1alpha1/kubeconfig").statusCode()).isEqualTo(200);

    assertThat(asked.get()).isBetween(seconds - 2, seconds);
  }

  // ---- POST /logout

  @Test
  void signing_out_of_a_provisioned_session_answers_it_and_deletes_it() {
    signedIn(Instant.parse("2030-01-01T10:00:00Z"), Instant.parse("2099-01-01T11:00:00Z"));

    HttpResponse<Buffer> response = call(HttpMethod.POST, "/api/v1alpha1/logout");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.bodyAsString()).isEqualTo("{\"username\":\"dana\",\"role\":\"view\",\"until\":\"2099-01-01T11:00:00Z\"}");
    assertThat(signin("svc-user-dana")).isNull();
  }

  @Test
  void signing_out_of_a_pending_session_answers_until_from_now() {
    call(HttpMethod.POST, "/api/v1alpha1/login");
    Instant before = Instant.now();

    HttpResponse<Buffer> response = call(HttpMethod.POST, "/api/v1alpha1/logout");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(until(response)).isCloseTo(before.plus(Duration.ofHours(1)), within(2, java.time.temporal.ChronoUnit.SECONDS));
    assertThat(signin("svc-user-dana")).isNull();
  }

  @Test
  void signing_out_without_a_session_is_404() {
    assertError(call(HttpMethod.POST, "/api/v1alpha1/logout"), 404,
        "{\"message\":\"User not signed in\",\"advice\":[\"run `svc login` first\"],"
            + "\"cause\":{\"message\":\"svcsignins.access.svc.dev \\\"svc-user-dana\\\" not found\"}}");
  }

  @Test
  void a_delete_refused_is_500() {
    call(HttpMethod.POST, "/api/v1alpha1/login");
    server.embeddedCluster().expect().delete().withPath(SIGNINS + "/svc-user-dana")
        .andReturn(500, new StatusBuilder().withCode(500).withMessage("etcdserver: leader changed").build()).once();

    assertError(call(HttpMethod.POST, "/api/v1alpha1/logout"), 500, "{\"message\":\"Failed to remove sign-in request\","
        + "\"cause\":{\"message\":\"etcdserver: leader changed\"}}");
    assertThat(signin("svc-user-dana")).isNotNull();
  }

  // ---- GET /cluster-info, 404, 405

  @Test
  void the_cluster_info_is_the_configured_one() {
    HttpResponse<Buffer> response = call(HttpMethod.GET, "/api/v1alpha1/cluster-info");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.getHeader("Content-Type")).isEqualTo("application/json; charset=utf-8");
    assertThat(response.bodyAsString()).isEqualTo("{\"server_url\":\"https://k8s.corp.example:6443\","
        + "\"insecure_skip_tls_verify\":false,\"ca_data\":\"" + CA + "\",\"labels\":{\"env\":\"staging\",\"region\":\"eu\"}}");
  }

  @Test
  void an_unknown_path_is_a_json_404() {
    HttpResponse<Buffer> response = call(HttpMethod.GET, "/api/v1alpha1/nothing");

    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(response.bodyAsJsonObject().getString("message")).isEqualTo("Not found");
    assertThat(response.bodyAsJsonObject().getJsonArray("advice")).isEqualTo(new JsonArray().add(
        "the API's routes are /api/v1alpha1/cluster-info, /api/v1alpha1/kubeconfig, /api/v1alpha1/login,"
            + " /api/v1alpha1/logout"));
  }

  @Test
  void a_known_path_with_another_method_is_405_with_allow() {
    HttpResponse<Buffer> response = call(HttpMethod.DELETE, "/api/v1alpha1/login");

    assertError(response, 405, "{\"message\":\"DELETE isn't a method of /api/v1alpha1/login\",\"advice\":[\"use GET,"
        + " POST\"]}");
    assertThat(response.getHeader("Allow")).isEqualTo("GET, POST");
    assertThat(call(HttpMethod.GET, "/api/v1alpha1/logout").getHeader("Allow")).isEqualTo("POST");
  }

  private record Run(int exit, String output) {}

  private static Run kubectl(Path dir, String... args) throws Exception {
    List<String> command = new java.util.ArrayList<>(List.of("kubectl"));
    command.addAll(List.of(args));
    Process process;
    try {
      process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
          .redirectOutput(dir.resolve("kubectl.out").toFile()).start();
    } catch (IOException e) {
      return new Run(-1, e.getMessage());
    }
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("kubectl " + command + " didn't finish");
    }
    return new Run(process.exitValue(), Files.readString(dir.resolve("kubectl.out"), StandardCharsets.UTF_8));
  }
}
