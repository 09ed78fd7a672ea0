package dev.svc.server.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.server.config.SvcConfig;
import dev.svc.supervisor.Pool;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The server's engines: operations on the supervisor pool's own threads, its meters in the server's registry. */
class SupervisedEnginesTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private SupervisedEngines oneInstance() {
    return SupervisedEngines.start(new SvcConfig.Engine(1, Duration.ofSeconds(1), Duration.ofMillis(100)), registry);
  }

  private static <T> T result(CompletionStage<T> call) throws Exception {
    return call.toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @Test
  void operations_run_on_the_pools_threads_and_its_waits_are_metered() throws Exception {
    try (SupervisedEngines engines = oneInstance()) {
      String thread = result(engines.submit(pool -> pool.withEngine(engine -> Thread.currentThread().getName())));

      assertThat(thread).startsWith("svc-pool-exec-");
      assertThat(registry.get("svc.pool.queue").timer().count()).isEqualTo(1);
      assertThat(registry.get("svc.pool.acquire").timer().count()).isEqualTo(1);
    }
  }

  @Test
  void calls_after_close_fail_and_close_ends_the_pool() throws Exception {
    SupervisedEngines engines = oneInstance();
    Pool pool = result(engines.submit(p -> p));

    engines.close();

    assertThatThrownBy(() -> result(engines.submit(p -> "late"))).cause()
        .isInstanceOf(IllegalStateException.class).hasMessage("the Pool is closed; create a new one");
    assertThatThrownBy(() -> pool.withEngine(engine -> "closed")).isInstanceOf(IllegalStateException.class);
  }
}
