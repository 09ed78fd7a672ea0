package dev.svc.server.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kubectl against the embedded API: the manifests of conf/kubernetes pass {@code kubectl apply
 * --dry-run=client} (each document parses and its kind is served with the scope it assumes), and
 * {@code kubectl get svcsignins} works. Validation is off: kubectl validates against the server's OpenAPI
 * schema, which the embedded API doesn't serve (the typed manifest tests check the fields). Skipped, with
 * the reason printed, when kubectl isn't on PATH ({@code scripts/setup} installs Debian's).
 */
class KubectlTest {

  private static final Path MANIFESTS = Path.of("../conf/kubernetes");

  @TempDir
  static Path home;

  private static Path kubectl;
  private static EmbeddedCluster cluster;
  private static Path kubeconfig;

  @BeforeAll
  static void start() throws IOException {
    Optional<Path> found = onPath("kubectl");
    if (found.isEmpty()) {
      System.out.println("KubectlTest skipped: kubectl isn't on PATH; scripts/setup installs Debian's kubernetes-client");
    }
    Assumptions.assumeTrue(found.isPresent(), "kubectl isn't on PATH");
    kubectl = found.get();
    cluster = EmbeddedCluster.start("svc-dev", Clock.systemUTC());
    kubeconfig = home.resolve("kubeconfig");
    Files.writeString(kubeconfig, String.join("\n",
        "apiVersion: v1",
        "kind: Config",
        "clusters: [{name: embedded, cluster: {server: \"" + cluster.url() + "\"}}]",
        "users: [{name: embedded, user: {token: embedded}}]",
        "contexts: [{name: embedded, context: {cluster: embedded, user: embedded}}]",
        "current-context: embedded", ""));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static Optional<Path> onPath(String command) {
    for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(directory.isEmpty() ? "." : directory, command);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** Runs kubectl with the embedded API's kubeconfig; answers its exit code and output lines. */
  private static List<String> run(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(kubectl.toString(), "--kubeconfig", kubeconfig.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    // Its discovery cache goes to the test's directory, not the user's.
    builder.environment().put("HOME", home.toString());
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
    List<String> lines = new ArrayList<>(List.of("exit " + process.exitValue()));
    lines.addAll(output.lines().toList());
    return lines;
  }

  private static List<String> dryRun(String manifest) throws IOException, InterruptedException {
    return run("apply", "--dry-run=client", "--validate=false", "-f", MANIFESTS.resolve(manifest).toString());
  }

  @Test
  void the_sign_in_definition_passes_a_dry_run() throws Exception {
    // The embedded API has it installed already: kubectl compares and would configure it.
    assertThat(dryRun("crd-svcsignins.yaml")).containsExactly("exit 0",
        "customresourcedefinition.apiextensions.k8s.io/svcsignins.access.svc.dev configured (dry run)");
  }

  @Test
  void the_rbac_passes_a_dry_run() throws Exception {
    assertThat(dryRun("rbac.yaml")).containsExactly("exit 0",
        "serviceaccount/svc-server created (dry run)",
        "role.rbac.authorization.k8s.io/svc-server created (dry run)",
        "rolebinding.rbac.authorization.k8s.io/svc-server created (dry run)",
        "clusterrole.rbac.authorization.k8s.io/svc-server created (dry run)",
        "clusterrolebinding.rbac.authorization.k8s.io/svc-server created (dry run)",
        "role.rbac.authorization.k8s.io/svc-server-cluster-info created (dry run)",
        "rolebinding.rbac.authorization.k8s.io/svc-server-cluster-info created (dry run)");
  }

  @Test
  void the_deployment_volume_and_network_policy_pass_a_dry_run() throws Exception {
    assertThat(dryRun("deployment.yaml")).containsExactly("exit 0",
        "persistentvolumeclaim/svc-state created (dry run)",
        "deployment.apps/svc created (dry run)",
        "networkpolicy.networking.k8s.io/svc-health created (dry run)");
  }

  @Test
  void kubectl_lists_sign_ins_by_their_short_name() throws Exception {
    assertThat(run("get", "signin", "-n", "svc-dev")).containsExactly("exit 0", "No resources found in svc-dev namespace.");
  }
}
