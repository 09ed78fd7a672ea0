package dev.svc.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.engine.BusyException;
import dev.svc.engine.EvalOptions;
import dev.svc.supervisor.micrometer.MicrometerPoolListener;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * {@link Pool#async}: calls on the pool's own threads, in one first-come-first-served line whose wait
 * is bounded by the acquire timeout.
 */
class AsyncCallsTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  // An acquire timeout of zero: a call that has to wait in line at all waits too long.
  private Pool oneInstanceWithoutWaiting() {
    return Pool.create(Fixtures.engine(), PoolOptions.builder()
        .size(1)
        .acquireTimeout(Duration.ZERO)
        .listener(new MicrometerPoolListener(registry))
        .build());
  }

  private static <T> T result(CompletableFuture<T> call) throws Exception {
    return call.get(30, TimeUnit.SECONDS);
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aCallThatWaitedInLinePastTheAcquireTimeoutFailsBusyWithoutRunning() throws Exception {
    try (Pool pool = oneInstanceWithoutWaiting()) {
      CountDownLatch running = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      CompletableFuture<String> first = pool.async(p -> {
        running.countDown();
        await(release);
        return p.withEngine(engine -> "first");
      });
      await(running);
      AtomicBoolean ran = new AtomicBoolean();
      CompletableFuture<String> late = pool.async(p -> {
        ran.set(true);
        return "late";
      });
      release.countDown();

      assertThat(result(first)).isEqualTo("first");
      assertThatThrownBy(() -> result(late)).isInstanceOf(ExecutionException.class)
          .cause().isInstanceOf(BusyException.class)
          .hasMessageStartingWith("every instance of the pool stayed busy for 0 ms");
      assertThat(ran).as("the late call didn't run").isFalse();
      String timely = result(pool.async(p -> "timely"));
      assertThat(timely).as("a call that finds a thread free runs").isEqualTo("timely");
      assertThat(registry.get("svc.pool.queue.busy").tag("lane", "operations").counter().count()).isEqualTo(1);
      assertThat(registry.get("svc.pool.queue").tag("lane", "operations").timer().count()).isEqualTo(3);
    }
  }

  @Test
  void aCallThatFoundAThreadFreeRunsHoweverLongItTookToStart() throws Exception {
    try (Pool pool = oneInstanceWithoutWaiting()) {
      String ran = result(pool.async(p -> p.withEngine(engine -> "ran")));
      String again = result(pool.async(p -> p.withEngine(engine -> "again")));

      assertThat(List.of(ran, again)).containsExactly("ran", "again");
      assertThat(registry.get("svc.pool.queue.busy").tag("lane", "operations").counter().count()).isZero();
    }
  }

  @Test
  void evaluationsRunWhileSlowOperationsHoldEveryThreadAndInstanceTheirLaneMayUse() throws Exception {
    try (Pool pool = Pool.create(Fixtures.engine(), PoolOptions.builder()
        .size(2)
        .acquireTimeout(Duration.ofSeconds(30))
        .listener(new MicrometerPoolListener(registry))
        .build())) {
      Fixtures.installRefund(pool, "desk");
      CountDownLatch holding = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      CompletableFuture<String> slow = pool.async(Lane.OPERATIONS, p -> p.withEngine(engine -> {
        holding.countDown();
        await(release);
        return "slow";
      }));
      CompletableFuture<String> waiting = pool.async(Lane.OPERATIONS, p -> p.withEngine(engine -> "waiting"));
      await(holding);

      List<String> decisions = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        decisions.add(result(pool.evaluateAsync("desk", Fixtures.refund(40, "web"), EvalOptions.defaults()))
            .decision().orElseThrow());
      }

      assertThat(decisions).containsExactly("approve", "approve", "approve");
      assertThat(waiting).as("the second slow call waits for the one thread of its lane").isNotDone();
      release.countDown();
      assertThat(result(slow)).isEqualTo("slow");
      assertThat(result(waiting)).isEqualTo("waiting");
    }
  }

  @Test
  void callsRunOnThePoolsThreadsAndFailOnceItIsClosed() throws Exception {
    Pool pool = oneInstanceWithoutWaiting();
    String thread = result(pool.async(p -> Thread.currentThread().getName()));
    assertThat(thread).startsWith("svc-pool-exec-");

    pool.close();

    assertThatThrownBy(() -> result(pool.async(p -> "late"))).cause()
        .isInstanceOf(IllegalStateException.class).hasMessage("the Pool is closed; create a new one");
  }
}
