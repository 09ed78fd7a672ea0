package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** No engine host outlives its JVM, even one killed with SIGKILL, which can't clean up. */
class HostOrphanTest {

  @Test
  void theHostsOfAJvmKilledWithSigkillEnd() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>(List.of(java.toString(), "-cp", System.getProperty("java.class.path")));
    for (String property : List.of("svc.cache.dir", "svc.native.path", "svc.engine.host.testTriggers")) {
      String value = System.getProperty(property);
      if (value != null) {
        command.add("-D" + property + "=" + value);
      }
    }
    command.add(HostOrphanProbe.class.getName());
    Path log = Files.createTempFile("host-orphan-probe", ".log");
    Process probe = new ProcessBuilder(command).redirectError(log.toFile()).start();
    List<Long> hosts = new ArrayList<>();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(probe.getInputStream(), StandardCharsets.UTF_8));
      for (String line = out.readLine(); !"ready".equals(line); line = out.readLine()) {
        assertThat(line).as("the probe's output (its stderr is in %s)", log).isNotNull();
        hosts.add(Long.parseLong(line));
      }
      assertThat(hosts).hasSize(2).allSatisfy(pid -> assertThat(ProcessHandle.of(pid)).isPresent());
      HostProcesses.awaitPaused(hosts.get(1));

      probe.destroyForcibly().waitFor();

      // The kernel kills each host when its parent dies; init reaps them, which a test can't wait
      // for, so an ended host may still show as a zombie.
      hosts.forEach(HostProcesses::awaitEnded);
    } finally {
      probe.destroyForcibly();
      hosts.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
      Files.deleteIfExists(log);
    }
  }
}
