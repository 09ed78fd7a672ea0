package dev.svc.server.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.engine.Isolation;
import dev.svc.engine.Limits;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.http.ApiError;
import dev.svc.supervisor.Lane;
import dev.svc.supervisor.Pool;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The server's engines: operations on the supervisor pool's own threads, its meters in the server's registry. */
class SupervisedEnginesTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private SupervisedEngines oneInstance() {
    return SupervisedEngines.start(
        new SvcConfig.Engine(1, Duration.ofSeconds(1), Duration.ofMillis(100), 256L << 20,
            Duration.ofSeconds(5), Isolation.IN_PROCESS, Duration.ZERO),
        registry);
  }

  @Test
  void with_engine_isolation_process_each_instance_runs_in_an_engine_host_process() throws Exception {
    try (SupervisedEngines engines = SupervisedEngines.start(
        new SvcConfig.Engine(1, Duration.ofSeconds(1), Duration.ofMillis(100), 256L << 20,
            Duration.ofSeconds(5), Isolation.PROCESS, Duration.ZERO),
        registry)) {
      String platform = result(engines.submit(pool -> pool.withEngine(engine -> engine.version().platform())));

      assertThat(platform).isEqualTo("wasip1/wasm");
      assertThat(ProcessHandle.current().children()
          .filter(p -> p.info().command().map(c -> c.endsWith("/svc-engine-host")).orElse(false)))
          .hasSize(1);
    }
  }

  private static <T> T result(CompletionStage<T> call) throws Exception {
    return call.toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @Test
  void operations_run_on_the_pools_threads_and_its_waits_are_metered() throws Exception {
    try (SupervisedEngines engines = oneInstance()) {
      String thread = result(engines.submit(pool -> pool.withEngine(engine -> Thread.currentThread().getName())));

      assertThat(thread).startsWith("svc-pool-exec-");
      assertThat(registry.get("svc.pool.queue").tag("lane", "operations").timer().count()).isEqualTo(1);
      assertThat(registry.get("svc.pool.acquire").timer().count()).isEqualTo(1);
    }
  }

  @Test
  void a_lane_whose_line_is_full_refuses_more_at_once_with_503() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (SupervisedEngines engines = oneInstance()) {
      List<CompletionStage<String>> held = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        held.add(engines.submit(Lane.OPERATIONS, "check", pool -> await(release)));
      }

      assertThatThrownBy(() -> result(engines.submit(Lane.OPERATIONS, "check", pool -> "sixth"))).cause()
          .isInstanceOfSatisfying(ApiError.class, e -> {
            assertThat(e.status()).isEqualTo(503);
            assertThat(e.getMessage()).isEqualTo(
                "the engine's line of installs, checks, formats, explains and tests is full: 5 are admitted at once");
            assertThat(e.help()).isEqualTo("try again after the Retry-After seconds, or send fewer requests at a time");
          });
      String evaluated = result(engines.submit(Lane.EVALUATIONS, "eval", pool -> "an evaluation"));
      assertThat(evaluated).as("the evaluations' line is another").isEqualTo("an evaluation");
      release.countDown();
      String first = result(held.get(0));
      assertThat(first).isEqualTo("released");
    }
  }

  private static String await(CountDownLatch latch) {
    try {
      assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
      return "released";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void each_kind_of_operation_has_its_own_deadline_and_memory_is_capped() {
    Limits limits = SupervisedEngines.limits(
        new SvcConfig.Engine(2, Duration.ofSeconds(1), Duration.ofSeconds(1), 64L << 20,
            Duration.ofSeconds(3), Isolation.IN_PROCESS, Duration.ZERO));

    assertThat(limits.maxMemory()).hasValue(64L << 20);
    assertThat(limits.opDeadline("compile")).hasValue(Duration.ofSeconds(30));
    for (String report : List.of("check", "format", "explain", "test")) {
      assertThat(limits.opDeadline(report)).as(report).hasValue(Duration.ofSeconds(10));
    }
    assertThat(limits.opDeadline("eval")).hasValue(Duration.ofMillis(3500));
    assertThat(limits.opDeadline("version")).hasValue(Limits.DEFAULT_OP_DEADLINE);
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
