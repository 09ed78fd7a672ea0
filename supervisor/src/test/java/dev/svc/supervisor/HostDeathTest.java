package dev.svc.supervisor;

import static dev.svc.supervisor.Fixtures.installRefund;
import static dev.svc.supervisor.Fixtures.refund;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.svc.engine.Isolation;
import dev.svc.engine.StoppedException;
import dev.svc.engine.internal.HostProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pool of instances in engine host processes ({@link Isolation#PROCESS}) whose hosts die from
 * outside, the way a native crash kills them: the caller on a dead host gets a {@link
 * StoppedException} saying so, the pool rebuilds the instance in a new host with every policy, and
 * the dead host leaves nothing behind; hosts that die as they start are tried again with back-off.
 */
class HostDeathTest {

  @Test
  void aHostKilledWithSigkillIsReplacedWithEveryPolicyReinstalled() {
    List<Long> before = hosts();
    PoolOptions options = PoolOptions.builder().size(1).isolation(Isolation.PROCESS).build();
    try (Pool pool = Pool.create(Fixtures.engine(), options)) {
      installRefund(pool, "refund.desk");
      long first = newHost(before);

      ProcessHandle.of(first).ifPresent(ProcessHandle::destroyForcibly);
      awaitReaped(first);

      assertThatThrownBy(() -> pool.evaluate("refund.desk", refund(40, "web")))
          .isInstanceOfSatisfying(StoppedException.class, e -> assertThat(e.message())
              .isEqualTo("the Sigil module stopped: its host process was killed by signal 9 (SIGKILL)"));
      await().atMost(Duration.ofSeconds(30)).until(() -> pool.stats().idle() == pool.stats().size());

      assertThat(pool.evaluate("refund.desk", refund(40, "web")).decision()).contains("approve");
      assertThat(pool.stats().replaced()).isEqualTo(1);
      assertThat(newHost(before)).isNotEqualTo(first);
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> hosts().equals(before));
  }

  @Test
  void hostsThatDieAtStartAreTriedAgainWithBackOffUntilOneStarts(@TempDir Path dir) throws IOException {
    List<Throwable> failedTries = Collections.synchronizedList(new ArrayList<>());
    PoolListener listener = new PoolListener() {
      @Override
      public void rebuildFailed(Throwable cause) {
        failedTries.add(cause);
      }
    };
    List<Long> before = hosts();
    PoolOptions options = PoolOptions.builder().size(1).isolation(Isolation.PROCESS).listener(listener).build();
    try (Pool pool = Pool.create(Fixtures.engine(), options)) {
      installRefund(pool, "refund.desk");
      long first = newHost(before);
      System.setProperty(HostProcess.EXECUTABLE_PROPERTY, dyingHost(dir).toString());
      try {
        ProcessHandle.of(first).ifPresent(ProcessHandle::destroyForcibly);
        awaitReaped(first);
        assertThatThrownBy(() -> pool.evaluate("refund.desk", refund(40, "web")))
            .isInstanceOf(StoppedException.class);

        await().atMost(Duration.ofSeconds(30)).until(() -> failedTries.size() >= 3);
        assertThat(failedTries).allSatisfy(e -> assertThat(e).isInstanceOfSatisfying(StoppedException.class,
            stopped -> {
              assertThat(stopped.message()).isEqualTo("starting the Sigil module failed: the engine host process"
                  + " ended while starting: its host process exited with code 3\n"
                  + "svc-engine-host: dies at start (test)");
              assertThat(stopped.help()).isEqualTo(HostProcess.START_HELP);
            }));
        assertThat(pool.stats().rebuilding()).isEqualTo(1);
      } finally {
        System.clearProperty(HostProcess.EXECUTABLE_PROPERTY);
      }

      await().atMost(Duration.ofSeconds(30)).until(() -> pool.stats().idle() == pool.stats().size());
      assertThat(pool.evaluate("refund.desk", refund(40, "web")).decision()).contains("approve");
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> hosts().equals(before));
  }

  // A stand-in for the host executable that says why on stderr and exits with code 3 at once.
  private static Path dyingHost(Path dir) throws IOException {
    Path script = dir.resolve("dying-host");
    Files.writeString(script, "#!/bin/sh\necho 'svc-engine-host: dies at start (test)' >&2\nexit 3\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }

  // The one host this test started.
  private static long newHost(List<Long> before) {
    List<Long> started = new ArrayList<>(hosts());
    started.removeAll(before);
    assertThat(started).hasSize(1);
    return started.get(0);
  }

  // This JVM's children running the engine host, sorted; a zombie would still be listed.
  private static List<Long> hosts() {
    return ProcessHandle.current().children()
        .filter(p -> p.info().command().map(c -> c.endsWith("/svc-engine-host")).orElse(false))
        .map(ProcessHandle::pid)
        .sorted()
        .toList();
  }

  private static void awaitReaped(long pid) {
    await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(pid).isEmpty());
  }
}
