package dev.svc.cli.kubeconfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.cli.files.AtomicFile;
import dev.svc.client.ClientException;
import dev.svc.client.Pause;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeconfigMergeTest {

  static final String SERVER = "https://svc.corp.ts.net:443";

  static final String THEIRS = """
      apiVersion: v1
      kind: Config
      preferences: {}
      clusters:
      - name: prod
        cluster:
          server: https://prod.example:6443
      users:
      - name: admin
        user:
          token: their-token
      contexts:
      - name: prod
        context:
          cluster: prod
          user: admin
          namespace: web
      current-context: prod
      """;

  @TempDir Path dir;

  static IssuedKubeconfig issued(String user, String token) {
    String yaml = """
        apiVersion: v1
        kind: Config
        clusters:
        - name: svc-cluster
          cluster:
            server: https://k8s-api.corp.example:6443
            insecure-skip-tls-verify: true
        users:
        - name: svc-user-%1$s
          user:
            token: %2$s
        contexts:
        - name: svc-context-%1$s
          context:
            cluster: svc-cluster
            user: svc-user-%1$s
        current-context: svc-context-%1$s
        """.formatted(user, token);
    return IssuedKubeconfig.parse(yaml.getBytes(StandardCharsets.UTF_8));
  }

  KubeconfigMerge merge(Path file) {
    return new KubeconfigMerge(AtomicFile.privateFile(file, Pause.SLEEP));
  }

  @Test
  void the_target_is_the_first_kubeconfig_path_else_kube_config_in_home() {
    Path home = Path.of("/home/dana");
    assertThat(KubeconfigMerge.target(Map.of(), home, ":")).isEqualTo(Path.of("/home/dana/.kube/config"));
    assertThat(KubeconfigMerge.target(Map.of("KUBECONFIG", ""), home, ":")).isEqualTo(Path.of("/home/dana/.kube/config"));
    assertThat(KubeconfigMerge.target(Map.of("KUBECONFIG", "/a/one:/b/two"), home, ":")).isEqualTo(Path.of("/a/one"));
    assertThat(KubeconfigMerge.target(Map.of("KUBECONFIG", ":/b/two"), home, ":")).isEqualTo(Path.of("/b/two"));
  }

  @Test
  void a_missing_file_is_created_private_in_a_private_directory() throws IOException {
    Path file = dir.resolve("new").resolve("config");

    KubeconfigMerge.Merged merged = merge(file).merge(issued("dana", "t1"), SERVER);

    assertThat(merged).isEqualTo(new KubeconfigMerge.Merged(file, "svc-context-dana", Optional.empty()));
    assertThat(mode(file)).isEqualTo("rw-------");
    assertThat(mode(file.getParent())).isEqualTo("rwx------");
    assertThat(Files.readString(file)).isEqualTo("""
        apiVersion: v1
        kind: Config
        preferences: {}
        clusters:
        - name: svc-cluster
          cluster:
            server: https://k8s-api.corp.example:6443
            insecure-skip-tls-verify: true
        users:
        - name: svc-user-dana
          user:
            token: t1
        contexts:
        - name: svc-context-dana
          context:
            cluster: svc-cluster
            user: svc-user-dana
            extensions:
            - name: access.svc.dev/previous-context
              extension:
                context: ""
                server: https://svc.corp.ts.net:443
        current-context: svc-context-dana
        """);
    assertThat(file.resolveSibling("config.lock")).doesNotExist();
  }

  @Test
  void merging_keeps_other_entries_and_the_files_mode_and_remembers_the_previous_context() throws IOException {
    Path file = write(THEIRS, "rw-r-----");

    KubeconfigMerge.Merged merged = merge(file).merge(issued("dana", "t1"), SERVER);

    assertThat(merged.previousContext()).contains("prod");
    assertThat(mode(file)).isEqualTo("rw-r-----");
    String text = Files.readString(file);
    assertThat(text).contains("- name: prod\n  cluster:\n    server: https://prod.example:6443",
        "token: their-token", "namespace: web", "context: prod", "current-context: svc-context-dana");
    assertThat(Files.readString(merge(file).backup())).isEqualTo(THEIRS);
  }

  @Test
  void signing_in_again_overwrites_the_token_in_place_and_keeps_the_remembered_context() throws IOException {
    Path file = write(THEIRS, "rw-------");
    merge(file).merge(issued("dana", "t1"), SERVER);

    KubeconfigMerge.Merged again = merge(file).merge(issued("dana", "t2"), SERVER);

    assertThat(again.previousContext()).contains("prod");
    String text = Files.readString(file);
    assertThat(text).contains("token: t2").doesNotContain("token: t1");
    assertThat(text.split("- name: svc-user-dana", -1)).as("one user entry").hasSize(2);
  }

  @Test
  void sign_out_removes_the_user_and_context_keeps_the_cluster_and_restores_the_previous_context() throws IOException {
    Path file = write(THEIRS, "rw-------");
    merge(file).merge(issued("dana", "t1"), SERVER);

    KubeconfigMerge.Removed removed = merge(file).remove(SERVER);

    assertThat(removed).isEqualTo(new KubeconfigMerge.Removed(file, List.of("svc-context-dana"), "prod"));
    String text = Files.readString(file);
    assertThat(text).contains("name: svc-cluster", "current-context: prod", "token: their-token")
        .doesNotContain("svc-user-dana", "svc-context-dana", "t1");
  }

  @Test
  void sign_out_leaves_contexts_of_other_servers_and_files_without_ours_alone() throws IOException {
    Path file = write(THEIRS, "rw-------");
    merge(file).merge(issued("dana", "t1"), SERVER);
    String before = Files.readString(file);

    assertThat(merge(file).remove("https://other:443").removedContexts()).isEmpty();

    assertThat(Files.readString(file)).isEqualTo(before);
    Path absent = dir.resolve("absent");
    assertThat(merge(absent).remove(SERVER).removedContexts()).isEmpty();
    assertThat(absent).doesNotExist();
  }

  @Test
  void a_file_that_isnt_a_kubeconfig_is_refused_and_left_as_it_is() throws IOException {
    Path file = write("- just\n- a list\n", "rw-------");

    assertThatThrownBy(() -> merge(file).merge(issued("dana", "t1"), SERVER))
        .isInstanceOf(ClientException.class)
        .hasMessage("`" + file + "` isn't a kubeconfig");
    assertThat(Files.readString(file)).isEqualTo("- just\n- a list\n");
    assertThat(file.resolveSibling("config.lock")).doesNotExist();
  }

  @Test
  void a_symbolic_link_is_followed_and_stays_a_link() throws IOException {
    Path real = write(THEIRS, "rw-------");
    Path link = Files.createSymbolicLink(dir.resolve("link"), real);

    merge(link).merge(issued("dana", "t1"), SERVER);

    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(Files.readString(real)).contains("token: t1", "token: their-token");
  }

  @Test
  void two_writers_racing_on_one_file_keep_both_entries() throws IOException {
    Path file = write(THEIRS, "rw-------");
    List<CompletableFuture<KubeconfigMerge.Merged>> writers = new ArrayList<>();
    for (String user : List.of("ann", "bob", "cid", "dee")) {
      writers.add(CompletableFuture.supplyAsync(() -> merge(file).merge(issued(user, "t-" + user), SERVER)));
    }
    writers.forEach(CompletableFuture::join);

    assertThat(Files.readString(file)).contains("token: t-ann", "token: t-bob", "token: t-cid", "token: t-dee",
        "token: their-token");
  }

  @Test
  void kubectl_reads_the_merged_file_and_signout_restores_its_context() throws Exception {
    Path file = write(THEIRS, "rw-------");
    merge(file).merge(issued("dana", "t1"), SERVER);
    if (Kubectl.missing()) {
      return;
    }

    assertThat(Kubectl.run(file, "config", "current-context")).isEqualTo("svc-context-dana\n");
    assertThat(Kubectl.run(file, "config", "get-contexts", "-o", "name")).isEqualTo("prod\nsvc-context-dana\n");
    assertThat(Kubectl.run(file, "config", "view", "--minify", "--raw", "-o", "jsonpath={.users[0].user.token}")).isEqualTo("t1");

    merge(file).remove(SERVER);

    assertThat(Kubectl.run(file, "config", "current-context")).isEqualTo("prod\n");
    assertThat(Kubectl.run(file, "config", "get-contexts", "-o", "name")).isEqualTo("prod\n");
  }

  private Path write(String text, String permissions) throws IOException {
    Path file = dir.resolve("config");
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
    return file;
  }

  private static String mode(Path path) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }
}
