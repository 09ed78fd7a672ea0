package dev.svc.cli.kubeconfig;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Debian's kubectl, run on a kubeconfig; tests that need it say so and skip when it is absent. */
final class Kubectl {

  private Kubectl() {}

  static boolean missing() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(dir, "kubectl"))) {
        return false;
      }
    }
    System.out.println("SKIPPED: kubectl is not on PATH (apt-get install kubernetes-client); the kubeconfig isn't read back");
    return true;
  }

  /** Runs {@code kubectl --kubeconfig file args...}, which must exit 0; its stdout. */
  static String run(Path file, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("kubectl", "--kubeconfig", file.toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as(out).isZero();
    return out;
  }
}
