package dev.svc.server.mesh.tailnet;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class CallDeadlinesTest {

  @Test
  void the_sweep_runs_every_tenth_of_the_shortest_deadline_within_10_ms_and_a_second() {
    assertThat(CallDeadlines.tick(Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(1));
    assertThat(CallDeadlines.tick(Duration.ofSeconds(180))).isEqualTo(Duration.ofSeconds(1));
    assertThat(CallDeadlines.tick(Duration.ofSeconds(1))).isEqualTo(Duration.ofMillis(100));
    assertThat(CallDeadlines.tick(Duration.ofMillis(50))).isEqualTo(Duration.ofMillis(10));
  }

  @Test
  void a_passed_deadline_ends_its_call_once_and_a_cancelled_one_never(Vertx vertx) {
    CallDeadlines deadlines = new CallDeadlines(vertx, Duration.ofMillis(100));
    AtomicInteger cancelledEnded = new AtomicInteger();
    AtomicInteger passedEnded = new AtomicInteger();
    try {
      // The cancelled deadline is the earlier one: by the time the later one passes, it passed too.
      deadlines.start(Duration.ofMillis(100), cancelledEnded::incrementAndGet).cancel();
      deadlines.start(Duration.ofMillis(100), passedEnded::incrementAndGet);

      Awaitility.await().until(() -> passedEnded.get() > 0);
      CallDeadlines.Deadline probe = deadlines.start(Duration.ZERO, passedEnded::incrementAndGet);
      Awaitility.await().until(() -> passedEnded.get() > 1);
      probe.cancel();

      assertThat(passedEnded).hasValue(2);
      assertThat(cancelledEnded).hasValue(0);
    } finally {
      deadlines.close();
    }
  }
}
