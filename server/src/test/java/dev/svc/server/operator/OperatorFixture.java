package dev.svc.server.operator;

import static org.awaitility.Awaitility.await;

import dev.svc.server.config.GoDuration;
import dev.svc.server.kube.SigninName;
import dev.svc.server.kube.SvcSignin;
import dev.svc.server.kube.SvcSigninSpec;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.awaitility.Awaitility;

/**
 * An operator on fabric8's CRUD mock API server with the sign-in CRD installed and a {@link ManualTime}:
 * what the operator's tests share.
 */
final class OperatorFixture implements AutoCloseable {

  static final String NAMESPACE = "svc-dev";
  static final Instant T0 = Instant.parse("2025-03-04T09:15:00Z");
  // Long enough that no test meets a resync or a sweep it didn't ask for.
  static final Duration NEVER = Duration.ofDays(1000);
  static final Tracer NO_TRACES = OpenTelemetry.noop().getTracer("test");
  // How often relogin writes before a conflict fails it: the operator writes a sign-in's status once or
  // twice per reconcile, so a few attempts always get through.
  private static final int RELOGIN_ATTEMPTS = 5;

  // Held so the level sticks: the mock server logs every request it answers, thousands per test.
  private static final Logger MOCK_LOG = Logger.getLogger("io.fabric8.mockwebserver");

  static {
    // A bound for a machine shared with other builds, not a measure of the operator's speed.
    Awaitility.setDefaultTimeout(Duration.ofMinutes(1));
    MOCK_LOG.setLevel(Level.WARNING);
  }

  final KubernetesClient client;
  final ManualTime time = new ManualTime(T0);
  final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  final OperatorMetrics metrics = new OperatorMetrics(registry, NAMESPACE, time);
  final KubernetesClient operatorClient;
  final SigninController controller;

  OperatorFixture(KubernetesClient client, Set<String> allowedRoles, Duration resyncEvery, Duration sweepEvery,
      Tracer tracer) {
    this.client = client;
    installCrd(client);
    // As KubernetesConnection configures it: no retries inside the client, the operator retries itself.
    this.operatorClient = new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder(client.getConfiguration()).withRequestRetryBackoffLimit(0).build()).build();
    this.controller = new SigninController(operatorClient, new OperatorSettings(NAMESPACE, allowedRoles, 2, resyncEvery,
        sweepEvery, OperatorSettings.BACKOFF_BASE, OperatorSettings.BACKOFF_MAX), time, time, metrics, tracer);
  }

  OperatorFixture(KubernetesClient client) {
    this(client, Set.of(), NEVER, NEVER, NO_TRACES);
  }

  static void installCrd(KubernetesClient client) {
    try (InputStream in = Files.newInputStream(Path.of("../conf/kubernetes/crd-svcsignins.yaml"))) {
      client.apiextensions().v1().customResourceDefinitions()
          .resource(Serialization.unmarshal(in, CustomResourceDefinition.class)).createOr(NonDeletingOperation::update);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  OperatorFixture start() {
    controller.start();
    return this;
  }

  /** What {@code POST /login} writes: a sign-in at {@code at} for {@code period}, not provisioned. */
  SvcSignin login(String username, String role, String period, Instant at) {
    SvcSignin signin = SvcSignin.of(SigninName.of(username).orElseThrow(), NAMESPACE,
        new SvcSigninSpec(username, role, period, username + "@corp.example"), at, at.plus(GoDuration.parse(period)));
    return signin(SigninName.PREFIX + username).create(signin);
  }

  /**
   * What a repeated {@code POST /login} writes: new spec and annotations, the status kept. Like the
   * server, it reads and writes again when the operator wrote the object in between (409).
   */
  SvcSignin relogin(String username, String role, String period, Instant at) {
    SvcSignin fresh = SvcSignin.of(SigninName.of(username).orElseThrow(), NAMESPACE,
        new SvcSigninSpec(username, role, period, username + "@corp.example"), at, at.plus(GoDuration.parse(period)));
    for (int attempt = 1; ; attempt++) {
      try {
        return signin(SigninName.PREFIX + username).edit(existing -> {
          existing.setSpec(fresh.getSpec());
          existing.getMetadata().setAnnotations(fresh.getMetadata().getAnnotations());
          return existing;
        });
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == RELOGIN_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  Resource<SvcSignin> signin(String name) {
    return client.resources(SvcSignin.class).inNamespace(NAMESPACE).withName(name);
  }

  ServiceAccount account(String name) {
    return client.serviceAccounts().inNamespace(NAMESPACE).withName(name).get();
  }

  ClusterRoleBinding binding(String name) {
    return client.rbac().clusterRoleBindings().withName(name).get();
  }

  List<Event> warnings(String reason) {
    return client.v1().events().inNamespace(NAMESPACE).list().getItems().stream()
        .filter(event -> reason.equals(event.getReason()))
        .toList();
  }

  /** Waits until {@code name} is provisioned with {@code validUntil}. */
  SvcSignin awaitProvisioned(String name, Instant validUntil) {
    await().until(() -> {
      SvcSignin signin = signin(name).get();
      return signin != null && signin.getStatus() != null && signin.getStatus().provisioned()
          && validUntil.toString().equals(signin.getStatus().validUntil());
    });
    awaitIdle();
    return signin(name).get();
  }

  /** Waits until {@code name}'s sign-in, ServiceAccount and binding are all gone. */
  void awaitGone(String name) {
    await().until(() -> signin(name).get() == null && account(name) == null
        && binding(name + "-binding") == null);
    awaitIdle();
  }

  void awaitIdle() {
    await().until(controller::idle);
  }

  /** How often {@code name} was reconciled. */
  /** How many reconciles of {@code name} the metrics count, read from the exposition as a scraper reads it. */
  long reconciles(String name) {
    Matcher count = Pattern.compile("^svc_reconciler_duration_seconds_count\\{name=\"" + Pattern.quote(name)
        + "\",[^}]*} (\\d+)$", Pattern.MULTILINE).matcher(registry.scrape());
    return count.find() ? Long.parseLong(count.group(1)) : 0;
  }

  double errors() {
    return registry.get("svc.reconciler.errors").counter().count();
  }

  @Override
  public void close() {
    controller.close();
    operatorClient.close();
    registry.close();
  }
}
