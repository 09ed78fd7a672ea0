package dev.svc.server.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.engine.BusyException;
import dev.svc.engine.EngineModule;
import dev.svc.supervisor.Pool;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The engine threads: one per instance, a first-come-first-served queue bounded by the acquire timeout. */
class SupervisedEnginesTest {

  private static final Duration ACQUIRE = Duration.ofMillis(100);

  private final EngineModule module = EngineModule.bundled();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @AfterEach
  void close() {
    module.close();
  }

  private SupervisedEngines oneThread(Duration acquireTimeout, LongSupplier clock) {
    return new SupervisedEngines(module, Pool.create(module, 1), 1, acquireTimeout, registry, clock);
  }

  private static <T> T result(CompletionStage<T> call) throws Exception {
    return call.toCompletableFuture().get(30, TimeUnit.SECONDS);
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
  void a_call_that_queued_past_the_acquire_timeout_fails_busy_without_running() throws Exception {
    AtomicLong now = new AtomicLong();
    try (SupervisedEngines engines = oneThread(ACQUIRE, now::get)) {
      CountDownLatch running = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      CompletionStage<String> first = engines.submit(pool -> {
        running.countDown();
        await(release);
        return "first";
      });
      await(running);
      AtomicBoolean ran = new AtomicBoolean();
      CompletionStage<String> late = engines.submit(pool -> {
        ran.set(true);
        return "late";
      });
      now.set(ACQUIRE.toNanos() + 1);
      CompletionStage<String> timely = engines.submit(pool -> "timely");
      release.countDown();

      assertThat(result(first)).isEqualTo("first");
      assertThatThrownBy(() -> result(late)).isInstanceOf(ExecutionException.class)
          .cause().isInstanceOf(BusyException.class).hasMessageStartingWith("every instance of the pool stayed busy for 100 ms");
      assertThat(ran).as("the late call didn't run").isFalse();
      assertThat(result(timely)).isEqualTo("timely");
      assertThat(registry.get("svc.engine.busy").counter().count()).isEqualTo(1);
      assertThat(registry.get("svc.engine.queue").timer().count()).isEqualTo(3);
    }
  }

  @Test
  void a_call_that_found_a_thread_free_runs_however_long_it_took_to_start() throws Exception {
    AtomicLong now = new AtomicLong();
    try (SupervisedEngines engines = oneThread(Duration.ZERO, () -> now.getAndAdd(Duration.ofSeconds(1).toNanos()))) {
      String ran = result(engines.submit(pool -> "ran"));
      String again = result(engines.submit(pool -> "again"));

      assertThat(List.of(ran, again)).containsExactly("ran", "again");
    }
  }

  @Test
  void calls_after_close_fail_and_close_ends_the_pool() {
    SupervisedEngines engines = oneThread(ACQUIRE, System::nanoTime);
    Pool[] pool = new Pool[1];
    engines.submit(p -> pool[0] = p).toCompletableFuture().join();

    engines.close();

    assertThatThrownBy(() -> result(engines.submit(p -> "late"))).cause()
        .isInstanceOf(IllegalStateException.class).hasMessage("the engines are closed");
    assertThatThrownBy(() -> pool[0].withEngine(engine -> "closed")).isInstanceOf(IllegalStateException.class);
  }
}
