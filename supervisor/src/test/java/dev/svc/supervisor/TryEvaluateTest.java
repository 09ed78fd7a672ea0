package dev.svc.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.engine.CompileOptions;
import dev.svc.engine.EvalOptions;
import dev.svc.engine.Isolation;
import dev.svc.engine.NoPolicyException;
import dev.svc.engine.SourceFile;
import dev.svc.engine.TimeoutException;
import dev.svc.supervisor.micrometer.MicrometerPoolListener;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Pool#tryEvaluateJson}: an evaluation at once on the calling thread, on an idle instance and
 * within a budget, or nothing, for the caller to evaluate the usual way.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TryEvaluateTest {

  private static final Duration BUDGET = Duration.ofMillis(5);

  /** A policy whose evaluation of {@link #slowInput()} takes far longer than {@link #BUDGET}. */
  private static final String SLOW = "refund.slow";

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private Pool pool(int size) {
    Pool pool = Pool.create(Fixtures.engine(), PoolOptions.builder()
        .size(size)
        .listener(new MicrometerPoolListener(registry))
        .build());
    Fixtures.installRefund(pool, "refund.desk");
    pool.compile(SLOW, List.of(Fixtures.KIND, SourceFile.of("refund/slow.sigil", """
        policy refund.slow: Refund@1

        when any n in notes: (any m in notes: m == n and n == "zz") {
          approve(reason: small)
        }
        """)), CompileOptions.defaults());
    return pool;
  }

  // 16 million comparisons: seconds of work, stopped by any deadline of milliseconds.
  private static Map<String, Object> slowInput() {
    List<String> notes = new ArrayList<>();
    for (int i = 0; i < 4000; i++) {
      notes.add("n" + i);
    }
    return Map.of("amount", 40, "channel", "web", "notes", notes);
  }

  private double evaluations(String policy) {
    return registry.find("svc.pool.evaluations").tag("policy", policy).timers().stream()
        .mapToDouble(timer -> timer.count()).sum();
  }

  private static String text(byte[] record) {
    return new String(record, StandardCharsets.UTF_8);
  }

  @Test
  void anIdleInstanceEvaluatesOnTheCallingThreadAndTheEvaluationIsCounted() {
    try (Pool pool = pool(1)) {
      Optional<byte[]> now = pool.tryEvaluateJson("refund.desk", Fixtures.refund(40, "web"), EvalOptions.defaults(), BUDGET);
      byte[] usual = pool.evaluateJson("refund.desk", Fixtures.refund(40, "web"), EvalOptions.defaults());

      assertThat(now).map(TryEvaluateTest::text).contains(text(usual));
      assertThat(evaluations("refund.desk")).isEqualTo(2);
    }
  }

  @Test
  void withEveryInstanceBusyNothingIsEvaluated() throws Exception {
    try (Pool pool = pool(1)) {
      HeldInstance held = HeldInstance.hold(pool, "refund.desk");

      assertThat(pool.tryEvaluateJson("refund.desk", Fixtures.refund(40, "web"), EvalOptions.defaults(), BUDGET))
          .isEmpty();
      held.release();
      assertThat(evaluations("refund.desk")).isZero();
      assertThat(pool.tryEvaluateJson("refund.desk", Fixtures.refund(40, "web"), EvalOptions.defaults(), BUDGET))
          .as("the instance given back is idle again").isPresent();
    }
  }

  // A second attempt after an overrun is measured, and pauses its policy if it had half the budget of
  // processor time, which a thread of a busy machine may not get in the budget's time: it tries until
  // one has, as the quick input then answers nothing.
  private static void pauseSlow(Pool pool) {
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() ->
        pool.tryEvaluateJson(SLOW, slowInput(), EvalOptions.defaults(), BUDGET).isEmpty()
            && pool.tryEvaluateJson(SLOW, slowInput(), EvalOptions.defaults(), BUDGET).isEmpty()
            && pool.tryEvaluateJson(SLOW, Fixtures.refund(40, "web"), EvalOptions.defaults(), BUDGET).isEmpty());
  }

  @Test
  void oneEvaluationPastTheBudgetPausesNothingSinceItsThreadMayHaveBeenPaused() {
    try (Pool pool = pool(1)) {
      assertThat(pool.tryEvaluateJson(SLOW, slowInput(), EvalOptions.defaults(), BUDGET)).isEmpty();

      assertThat(pool.tryEvaluateJson(SLOW, Fixtures.refund(40, "web"), EvalOptions.defaults(), BUDGET))
          .map(TryEvaluateTest::text).hasValueSatisfying(record -> assertThat(record).contains("\"decision\":\"deny\""));
    }
  }

  @Test
  void anEvaluationPastTheBudgetAnswersNothingAndItsPolicyWaitsOutThePause() {
    try (Pool pool = pool(1)) {
      assertThat(pool.tryEvaluateJson(SLOW, slowInput(), EvalOptions.defaults(), BUDGET)).isEmpty();
      assertThat(evaluations(SLOW)).as("the attempt isn't an evaluation anyone saw").isZero();
      assertThat(pool.stats().replaced()).as("stopped by the cooperative deadline, the instance serves on").isZero();

      pauseSlow(pool);
      assertThat(pool.tryEvaluateJson("refund.desk", Fixtures.refund(40, "web"), EvalOptions.defaults(), BUDGET))
          .as("other policies aren't paused").isPresent();
      assertThat(text(pool.evaluateJson(SLOW, Fixtures.refund(40, "web"), EvalOptions.defaults())))
          .as("the usual way evaluates it").contains("\"decision\":\"deny\"");
    }
  }

  @Test
  void installingThePolicyAgainEndsItsPause() {
    try (Pool pool = pool(1)) {
      pauseSlow(pool);
      pool.compile(SLOW, Fixtures.refund(SLOW), CompileOptions.defaults());

      assertThat(pool.tryEvaluateJson(SLOW, Fixtures.refund(40, "web"), EvalOptions.defaults(), BUDGET))
          .map(TryEvaluateTest::text).hasValueSatisfying(record -> assertThat(record).contains("\"decision\":\"approve\""));
    }
  }

  @Test
  void anOwnTimeoutWithinTheBudgetIsTheAnswerCanceled() {
    try (Pool pool = pool(1)) {
      Optional<byte[]> canceled = pool.tryEvaluateJson(SLOW, slowInput(),
          EvalOptions.defaults().withTimeout(Duration.ofMillis(1)), Duration.ofSeconds(1));

      assertThat(canceled).map(TryEvaluateTest::text)
          .hasValueSatisfying(record -> assertThat(record).contains("\"kind\":\"canceled\""));
      assertThat(evaluations(SLOW)).isEqualTo(1);
    }
  }

  @Test
  void aStepPastTheHardDeadlineTheBudgetBroughtForwardStopsTheInstanceAndAnswersNothing() {
    try (Pool pool = pool(1)) {
      EvalOptions noGrace = EvalOptions.defaults().withGrace(Duration.ZERO);
      assertThat(pool.tryEvaluateJson("refund.desk", Fixtures.huge(), noGrace, Duration.ofMillis(1)))
          .as("decoding the input has no deadline check: the hard deadline stops it").isEmpty();

      assertThat(pool.stats().replaced()).isEqualTo(1);
      assertThat(registry.find("svc.pool.failures").counters()).as("nobody saw the attempt fail").isEmpty();
    }
  }

  @Test
  void aStepPastTheCallersOwnHardDeadlineFailsAsTheUsualWayWould() {
    try (Pool pool = pool(1)) {
      EvalOptions own = EvalOptions.defaults().withTimeout(Duration.ofMillis(1)).withGrace(Duration.ZERO);
      assertThatThrownBy(() -> pool.tryEvaluateJson("refund.desk", Fixtures.huge(), own, Duration.ofSeconds(1)))
          .isInstanceOf(TimeoutException.class);
      assertThat(registry.get("svc.pool.failures").tag("kind", "timeout").counter().count()).isEqualTo(1);
    }
  }

  @Test
  void instancesOutOfProcessNeverEvaluateOnTheCallingThread() {
    PoolOptions options = PoolOptions.builder().size(1).isolation(Isolation.PROCESS)
        .listener(new MicrometerPoolListener(registry)).build();
    try (Pool pool = Pool.create(Fixtures.engine(), options)) {
      Fixtures.installRefund(pool, "refund.desk");

      assertThat(pool.tryEvaluateJson("refund.desk", Fixtures.refund(40, "web"), EvalOptions.defaults(), BUDGET))
          .isEmpty();
      assertThat(evaluations("refund.desk")).isZero();
    }
  }

  @Test
  void anUnknownPolicyIsRefusedAsEverywhere() {
    try (Pool pool = pool(1)) {
      assertThatThrownBy(() -> pool.tryEvaluateJson("refund.none", Map.of(), EvalOptions.defaults(), BUDGET))
          .isInstanceOf(NoPolicyException.class);
    }
  }

  @Test
  void theBudgetMustBePositive() {
    try (Pool pool = pool(1)) {
      assertThatThrownBy(() -> pool.tryEvaluateJson("refund.desk", Map.of(), EvalOptions.defaults(), Duration.ZERO))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("budget must be positive, got PT0S");
    }
  }
}
