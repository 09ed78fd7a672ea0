package dev.svc.supervisor;

import static dev.svc.supervisor.Fixtures.installRefund;
import static dev.svc.supervisor.Fixtures.refund;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.svc.engine.Isolation;
import dev.svc.engine.StoppedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pool of instances in engine host processes ({@link Isolation#PROCESS}) whose hosts die from
 * outside, the way a native crash kills them: the caller on a dead host gets a {@link
 * StoppedException} saying so, the pool rebuilds the instance in a new host with every policy, and
 * the dead host leaves nothing behind.
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
