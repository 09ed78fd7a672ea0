package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.svc.server.config.ConfigKey;
import dev.svc.server.config.ConfigSources.Flag;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

class ServeCommandTest {

  @TempDir Path dir;

  private static ServeCommand parse(String... args) {
    CommandLine.ParseResult result = Svc.commandLine().parseArgs(args);
    return (ServeCommand) result.subcommand().commandSpec().userObject();
  }

  @Test
  void every_flag_sets_its_key_and_names_itself() {
    ServeCommand serve = parse("serve", "--debug", "-s", "svc-2", "-p", "8443", "-d", "/var/lib/svc", "-n", "corp/cap",
        "--mesh-mode", "dev", "--health-port", "9090", "--api-endpoint", "https://k8s:6443", "--ca-data", "Y2E=",
        "--insecure-skip-tls-verify", "--labels", "env=staging,region=eu", "--kubernetes-mode", "embedded");

    assertThat(serve.flags()).isEqualTo(Map.ofEntries(
        Map.entry(ConfigKey.DEBUG, new Flag("--debug", "true")),
        Map.entry(ConfigKey.MESH_HOSTNAME, new Flag("--server", "svc-2")),
        Map.entry(ConfigKey.MESH_PORT, new Flag("--port", "8443")),
        Map.entry(ConfigKey.MESH_STATE_DIR, new Flag("--dir", "/var/lib/svc")),
        Map.entry(ConfigKey.MESH_CAP_NAME, new Flag("--cap-name", "corp/cap")),
        Map.entry(ConfigKey.MESH_MODE, new Flag("--mesh-mode", "dev")),
        Map.entry(ConfigKey.HEALTH_PORT, new Flag("--health-port", "9090")),
        Map.entry(ConfigKey.CLUSTER_INFO_API_ENDPOINT, new Flag("--api-endpoint", "https://k8s:6443")),
        Map.entry(ConfigKey.CLUSTER_INFO_CA_DATA, new Flag("--ca-data", "Y2E=")),
        Map.entry(ConfigKey.CLUSTER_INFO_INSECURE_SKIP_TLS_VERIFY, new Flag("--insecure-skip-tls-verify", "true")),
        Map.entry(ConfigKey.CLUSTER_INFO_LABELS, new Flag("--labels", "env=staging,region=eu")),
        Map.entry(ConfigKey.KUBERNETES_MODE, new Flag("--kubernetes-mode", "embedded"))));
  }

  @Test
  void help_lists_the_flags_with_their_keys_and_the_exit_codes() {
    CapturedRun run = CapturedRun.ofSvc("serve", "--help");

    assertThat(run.exit()).isZero();
    assertThat(run.out())
        .contains("--labels=<k=v,...>", "(clusterInfo.labels)", "--mesh-mode=<mode>", "(mesh.mode)")
        .contains("2   the flags or the configuration are wrong");
  }

  @Test
  void a_flag_of_a_key_that_takes_one_of_a_few_words_lists_them() {
    CommandLine serve = Svc.commandLine().getSubcommands().get("serve");

    assertThat(serve.getCommandSpec().findOption("--mesh-mode").description())
        .containsExactly("How the node joins the tailnet: managed, external or dev (mesh.mode).");
    assertThat(serve.getCommandSpec().findOption("--port").description())
        .containsExactly("API port; 443 means HTTPS, 0 any free port (mesh.port).");
  }

  @Test
  void only_the_flags_passed_count() {
    assertThat(parse("serve").flags()).isEmpty();
    assertThat(parse("serve", "--debug=false").flags())
        .isEqualTo(Map.of(ConfigKey.DEBUG, new Flag("--debug", "false")));
  }

  static Stream<Arguments> a_serve_that_cannot_run_exits_with_what_to_do() {
    return Stream.of(
        arguments("mesh:\n  prot: 8443\n", List.of("--port", "abc"), 2, "svc serve: the configuration has 2 problems:\n"
            + "config file {file}:2:3: mesh.prot: unknown key\n"
            + "  help: did you mean `mesh.port`? conf/config.yaml lists every key\n"
            + "flag --port: mesh.port: `abc` isn't a whole number\n"
            + "  help: write a port number from 0 to 65535\n"),
        // Spec §2.6: well-formed values a server can't start with exit 1, as a start that fails does ...
        arguments("clusterInfo:\n  configMapRef:\n    enabled: true\n", List.of("--api-endpoint", "https://k8s:6443"), 1,
            "svc serve: the configuration has 1 problem:\n"
            + "flag --api-endpoint and config file {file}:3:5 (clusterInfo.configMapRef.enabled):"
            + " clusterInfo.apiEndpoint: both are set\n"
            + "  help: use either explicit cluster info or the ConfigMap reference, not both\n"),
        // ... unless the configuration can't even be read (§1.3 step 1).
        arguments("clusterInfo:\n  configMapRef:\n    enabled: true\n", List.of("--api-endpoint", "https://k8s:6443",
            "--port", "abc"), 2, "svc serve: the configuration has 2 problems:\n"
            + "flag --port: mesh.port: `abc` isn't a whole number\n"
            + "  help: write a port number from 0 to 65535\n"
            + "flag --api-endpoint and config file {file}:3:5 (clusterInfo.configMapRef.enabled):"
            + " clusterInfo.apiEndpoint: both are set\n"
            + "  help: use either explicit cluster info or the ConfigMap reference, not both\n"),
        arguments("mesh:\n  tailscaled: /nonexistent/tailscaled\n", List.of("--mesh-mode", "managed"), 1,
            "svc serve: tailscaled not found: mesh.tailscaled is \"/nonexistent/tailscaled\"\n"
            + "  help: install tailscaled (pin its version in the image) or set mesh.tailscaled to its path; without it,"
            + " use mesh.mode external with a daemon someone else runs, or mesh.mode dev on one machine\n"));
  }

  @ParameterizedTest
  @MethodSource
  void a_serve_that_cannot_run_exits_with_what_to_do(String yaml, List<String> flags, int code, String message)
      throws IOException {
    Path file = Files.writeString(dir.resolve("config.yaml"), yaml);
    List<String> args = new ArrayList<>(List.of("serve", "-c", file.toString()));
    args.addAll(flags);

    CapturedRun run = CapturedRun.ofSvc(args.toArray(String[]::new));
    assertThat(run.exit()).isEqualTo(code);
    assertThat(run.err()).isEqualTo(message.replace("{file}", file.toString()));
  }
}
