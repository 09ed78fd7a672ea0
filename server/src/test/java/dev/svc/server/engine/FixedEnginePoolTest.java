package dev.svc.server.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.engine.EngineException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FixedEnginePoolTest {

  @Test
  void operations_run_on_the_pools_own_threads() throws Exception {
    try (FixedEnginePool pool = FixedEnginePool.start(2)) {
      String thread = pool.submit(engine -> {
        engine.version();
        return Thread.currentThread().getName();
      }).toCompletableFuture().get(60, TimeUnit.SECONDS);

      assertThat(thread).startsWith("svc-engine-");
    }
  }

  @Test
  void an_engine_error_completes_the_operation_exceptionally_and_the_engine_serves_on() throws Exception {
    try (FixedEnginePool pool = FixedEnginePool.start(1)) {
      assertThatThrownBy(() -> pool.submit(engine -> engine.format("policy {")).toCompletableFuture()
          .get(60, TimeUnit.SECONDS)).hasCauseInstanceOf(EngineException.class);

      assertThat(pool.submit(engine -> engine.format("policy a.b: K@1\n")).toCompletableFuture()
          .get(60, TimeUnit.SECONDS)).isEqualTo("policy a.b: K@1\n");
    }
  }

  @Test
  void a_closed_pool_refuses_operations_and_closes_once() {
    FixedEnginePool pool = FixedEnginePool.start(1);
    pool.close();
    pool.close();

    assertThatThrownBy(() -> pool.submit(engine -> 1)).isInstanceOf(RejectedExecutionException.class);
  }

  @Test
  void a_pool_needs_an_engine() {
    assertThatThrownBy(() -> FixedEnginePool.start(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a pool needs at least one engine, not 0");
  }
}
