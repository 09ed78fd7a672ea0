package dev.svc.supervisor;

import static dev.svc.supervisor.Fixtures.decideWeb;
import static dev.svc.supervisor.Fixtures.installRefund;
import static dev.svc.supervisor.Fixtures.onEveryInstance;
import static dev.svc.supervisor.Fixtures.refund;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.svc.engine.BusyException;
import dev.svc.engine.CompileOptions;
import dev.svc.engine.Diagnostic;
import dev.svc.engine.EngineException;
import dev.svc.engine.EvalOptions;
import dev.svc.engine.EvalResult;
import dev.svc.engine.NoPolicyException;
import dev.svc.engine.SourceFile;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link Pool}: installing, evaluating by name, waiting for instances, closing. */
class PoolTest {

  private static final List<SourceFile> BROKEN =
      List.of(
          Fixtures.KIND,
          SourceFile.of(
              "refund/desk.sigil",
              "policy refund.desk: Refund@1\n\nwhen amont > 1 {\n  deny(reason: fraud)\n}\n"));

  @Test
  void aCompiledPolicyIsEvaluatedByItsName() {
    try (Pool pool = Pool.create(Fixtures.engine(), 2)) {
      List<Diagnostic> diagnostics = pool.compile("refund.desk", refund("refund.desk"), CompileOptions.defaults());

      assertThat(diagnostics).isEmpty();
      assertThat(pool.evaluate("refund.desk", refund(40, "web")).decision()).contains("approve");
      assertThat(pool.evaluate("refund.desk", refund(40, "phone")).reason()).contains("no_rule");
      assertThat(pool.names()).containsExactly("refund.desk");
      assertThat(pool.stats()).isEqualTo(new PoolStats(2, 2, 1, 0, 0));
    }
  }

  @Test
  void anInstalledPolicyIsExplainedByItsName() {
    try (Pool pool = Pool.create(Fixtures.engine(), 1)) {
      pool.compile("refund.desk", refund("refund.desk"), CompileOptions.defaults());

      assertThat(pool.explain("refund.desk").policy()).isEqualTo("refund.desk");
      assertThat(pool.explain("refund.desk").rules()).isNotEmpty();
    }
  }

  @Test
  void anInputThatCannotBeEncodedCostsNoRebuild() {
    try (Pool pool = Pool.create(Fixtures.engine(), 1)) {
      pool.compile("refund.desk", refund("refund.desk"), CompileOptions.defaults());

      assertThatThrownBy(() -> pool.evaluate("refund.desk", Map.of("amount", new Object())))
          .isInstanceOf(EngineException.class);
      assertThat(pool.stats().replaced()).isZero();
      assertThat(pool.evaluate("refund.desk", refund(40, "web")).decision()).contains("approve");
    }
  }

  @Test
  void everyInstanceHoldsEveryInstalledPolicy() {
    try (Pool pool = Pool.create(Fixtures.engine(), 3)) {
      installRefund(pool, "refund.desk");

      List<String> decisions = onEveryInstance(pool, "refund.desk", p -> decideWeb(p, 40));

      assertThat(decisions).containsExactly("approve", "approve", "approve");
    }
  }

  @Test
  void theNamesAreSorted() {
    try (Pool pool = Pool.create(Fixtures.engine(), 1)) {
      for (String name : List.of("b.desk", "c.desk", "a.desk")) {
        installRefund(pool, name);
      }

      assertThat(pool.names()).containsExactly("a.desk", "b.desk", "c.desk");
    }
  }

  @Test
  void aNameNothingIsInstalledUnderIsNoPolicy() {
    try (Pool pool = Pool.create(Fixtures.engine(), 1)) {
      installRefund(pool, "refund.desk");

      NoPolicyException missing =
          catchThrowableOfType(NoPolicyException.class, () -> pool.evaluate("refund.dsk", refund(1, "web")));

      assertThat(missing.name()).isEqualTo("refund.dsk");
      assertThat(missing.getMessage())
          .isEqualTo(
              "the pool has no policy named refund.dsk\n"
                  + "  help: install it with Pool.install or Pool.compile before evaluating it");
      assertThat(missing.isStopped()).isFalse();
      assertThat(pool.stats().replaced()).isZero();
    }
  }

  @Test
  void aFailedInstallLeavesThePoolAsItWas() {
    try (Pool pool = Pool.create(Fixtures.engine(), 2)) {
      installRefund(pool, "refund.desk");

      EngineException refused =
          catchThrowableOfType(
              EngineException.class, () -> pool.compile("refund.desk", BROKEN, CompileOptions.defaults()));
      assertThatThrownBy(() -> pool.compile("refund.new", BROKEN, CompileOptions.defaults()))
          .isInstanceOf(EngineException.class);

      assertThat(refused.diagnostics()).extracting(Diagnostic::message).containsExactly("unknown name `amont`");
      assertThat(pool.names()).containsExactly("refund.desk");
      assertThat(onEveryInstance(pool, "refund.desk", p -> decideWeb(p, 40)))
          .containsExactly("approve", "approve");
      assertThat(pool.stats().replaced()).isZero();
    }
  }

  @Test
  void installingUnderATakenNameReplacesThePolicyInEveryInstance() {
    try (Pool pool = Pool.create(Fixtures.engine(), 3)) {
      installRefund(pool, "refund.desk");

      pool.compile("refund.desk", refund("refund.desk", 20), CompileOptions.defaults());

      assertThat(onEveryInstance(pool, "refund.desk", p -> decideWeb(p, 40)))
          .containsExactly("deny", "deny", "deny");
      assertThat(pool.names()).containsExactly("refund.desk");
    }
  }

  @Test
  void aRecipeRunsOnceInEachInstance() {
    try (Pool pool = Pool.create(Fixtures.engine(), 3)) {
      TestRecipe recipe = TestRecipe.refund("refund.desk", 100);

      pool.install("refund.desk", recipe);

      assertThat(recipe.engines()).hasSize(3).doesNotHaveDuplicates();
      onEveryInstance(pool, "refund.desk", p -> p.eval(refund(40, "web")));
      assertThat(recipe.engines()).as("no instance ran it again").hasSize(3);
    }
  }

  @Test
  void removingAPolicyTakesItOutOfThePool() {
    try (Pool pool = Pool.create(Fixtures.engine(), 2)) {
      installRefund(pool, "refund.desk");
      installRefund(pool, "refund.kept");

      assertThat(pool.remove("refund.desk")).isTrue();
      assertThat(pool.remove("refund.desk")).isFalse();

      assertThat(pool.names()).containsExactly("refund.kept");
      assertThatThrownBy(() -> pool.evaluate("refund.desk", refund(40, "web"))).isInstanceOf(NoPolicyException.class);
      assertThat(pool.evaluate("refund.kept", refund(40, "web")).decision()).contains("approve");
      assertThat(pool.stats().installed()).isEqualTo(1);
    }
  }

  @Test
  void aCallerWaitsForAFreeInstanceUpToTheAcquireTimeout() throws Exception {
    PoolOptions options = PoolOptions.builder().size(1).acquireTimeout(Duration.ofMillis(50)).build();
    try (Pool pool = Pool.create(Fixtures.engine(), options)) {
      installRefund(pool, "refund.desk");
      HeldInstance held = HeldInstance.hold(pool, "refund.desk");

      BusyException busy =
          catchThrowableOfType(BusyException.class, () -> pool.evaluate("refund.desk", refund(1, "web")));

      assertThat(busy.waited()).isEqualTo(Duration.ofMillis(50));
      assertThat(busy.getMessage())
          .isEqualTo(
              "every instance of the pool stayed busy for 50 ms\n"
                  + "  help: the pool is saturated: raise its size or shed load");
      held.release();
      assertThat(pool.evaluate("refund.desk", refund(1, "web")).decision()).contains("approve");
    }
  }

  @Test
  void evaluateJsonAnswersTheRecordTheEngineWroteAndCountsAsAnEvaluation() {
    List<String> evaluated = new ArrayList<>();
    PoolListener listener =
        new PoolListener() {
          @Override
          public void evaluated(String policy, String decision, Duration took) {
            evaluated.add(policy + " " + decision);
          }
        };
    try (Pool pool = Pool.create(Fixtures.engine(), PoolOptions.builder().size(1).listener(listener).build())) {
      installRefund(pool, "refund.desk");

      byte[] json = pool.evaluateJson("refund.desk", refund(40, "web"), EvalOptions.defaults());
      String expected =
          pool.withPolicy(
              "refund.desk",
              p -> new String(p.evalJson(refund(40, "web"), EvalOptions.defaults()), StandardCharsets.UTF_8));

      assertThat(new String(json, StandardCharsets.UTF_8)).isEqualTo(expected).startsWith("{\"policy\":\"refund.desk\",");
      assertThat(evaluated).containsExactly("refund.desk approve");
    }
  }

  @Test
  void withEngineLendsAnInstanceForCallsThatNeedNoPolicy() {
    try (Pool pool = Pool.create(Fixtures.engine(), 1)) {
      String formatted = pool.withEngine(engine -> engine.format("policy   a.b:K@1"));

      assertThat(formatted).isEqualTo("policy a.b: K@1\n");
      assertThat(pool.stats().idle()).isEqualTo(1);
    }
  }

  @Test
  void withEngineWaitsForAFreeInstanceUpToTheAcquireTimeout() throws Exception {
    PoolOptions options = PoolOptions.builder().size(1).acquireTimeout(Duration.ZERO).build();
    try (Pool pool = Pool.create(Fixtures.engine(), options)) {
      installRefund(pool, "refund.desk");
      HeldInstance held = HeldInstance.hold(pool, "refund.desk");

      assertThatThrownBy(() -> pool.withEngine(engine -> engine.format("policy a.b: K@1\n")))
          .isInstanceOf(BusyException.class);
      held.release();
      String formatted = pool.withEngine(engine -> engine.format("policy a.b: K@1\n"));
      assertThat(formatted).isEqualTo("policy a.b: K@1\n");
    }
  }

  @Test
  void anEngineErrorInWithEngineIsTheCallersAndTheInstanceServesOn() {
    try (Pool pool = Pool.create(Fixtures.engine(), 1)) {
      assertThatThrownBy(() -> pool.withEngine(engine -> engine.format("policy")))
          .isInstanceOf(EngineException.class);

      String formatted = pool.withEngine(engine -> engine.format("policy a.b: K@1\n"));
      assertThat(formatted).isEqualTo("policy a.b: K@1\n");
      assertThat(pool.stats().replaced()).isZero();
    }
  }

  @Test
  void optionsOutsideTheirRangeAreRefused() {
    assertThatThrownBy(() -> PoolOptions.builder().size(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a pool needs at least one instance, got a size of 0: set the size to 1 or more");
    assertThatThrownBy(() -> Pool.create(Fixtures.engine(), -1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PoolOptions.builder().acquireTimeout(Duration.ofMillis(-1)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("acquireTimeout must not be negative, got PT-0.001S");
    assertThat(PoolOptions.defaults().size()).isEqualTo(Runtime.getRuntime().availableProcessors());
    assertThat(PoolOptions.defaults().acquireTimeout()).isEmpty();
  }

  @Test
  void nullArgumentsAreRefusedByName() {
    try (Pool pool = Pool.create(Fixtures.engine(), 1)) {
      assertThatThrownBy(() -> pool.evaluate(null, Map.of())).hasMessage("name");
      assertThatThrownBy(() -> pool.evaluate("a", Map.of(), null)).hasMessage("options");
      assertThatThrownBy(() -> pool.install("a", null)).hasMessage("recipe");
      assertThatThrownBy(() -> pool.compile("a", null, CompileOptions.defaults())).hasMessage("files");
      assertThatThrownBy(() -> pool.withPolicy("a", null)).hasMessage("fn");
      assertThatThrownBy(() -> Pool.create(null, 1)).hasMessage("module");
    }
  }

  @Test
  void parallelEvaluationsDecideAsSerialOnes() throws Exception {
    try (Pool pool = Pool.create(Fixtures.engine(), 2)) {
      installRefund(pool, "refund.desk");
      Random random = new Random(7);
      List<Integer> amounts = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        amounts.add(random.nextInt(300));
      }
      List<String> serial = amounts.stream().map(a -> decide(pool, a)).toList();

      List<String> parallel = amounts.parallelStream().map(a -> decide(pool, a)).toList();

      assertThat(parallel).isEqualTo(serial);
      assertThat(serial).isEqualTo(amounts.stream().map(a -> Fixtures.decision(a, "web", 100)).toList());
      assertThat(pool.stats()).isEqualTo(new PoolStats(2, 2, 1, 0, 0));
    }
  }

  @Test
  void withPolicyLendsThePolicyForSeveralCalls() {
    try (Pool pool = Pool.create(Fixtures.engine(), 1)) {
      installRefund(pool, "refund.desk");

      List<String> decisions =
          pool.withPolicy(
              "refund.desk",
              p -> List.of(p.name(), decideWeb(p, 40), decideWeb(p, 400)));

      assertThat(decisions).containsExactly("refund.desk", "approve", "deny");
    }
  }

  @Test
  void anInputThatDoesntFitIsRefusedAndTheInstanceServesOn() {
    try (Pool pool = Pool.create(Fixtures.engine(), 1)) {
      installRefund(pool, "refund.desk");

      assertThatThrownBy(() -> pool.evaluate("refund.desk", Map.of("amout", 3)))
          .isInstanceOfSatisfying(
              EngineException.class, e -> assertThat(e.message()).contains("unknown input \"amout\""));

      assertThat(pool.evaluate("refund.desk", refund(40, "web")).decision()).contains("approve");
      assertThat(pool.stats().replaced()).isZero();
    }
  }

  @Test
  void theAsyncVariantsRunOnThePoolsThreads() throws Exception {
    List<String> threads = new ArrayList<>();
    PoolListener listener = new PoolListener() {
      @Override
      public void evaluated(String policy, String decision, Duration took) {
        synchronized (threads) {
          threads.add(Thread.currentThread().getName());
        }
      }
    };
    try (Pool pool = Pool.create(Fixtures.engine(), PoolOptions.builder().size(2).listener(listener).build())) {
      List<Diagnostic> diagnostics =
          pool.compileAsync("refund.desk", refund("refund.desk"), CompileOptions.defaults()).get(30, TimeUnit.SECONDS);

      EvalResult result =
          pool.evaluateAsync("refund.desk", refund(40, "web"), EvalOptions.defaults()).get(30, TimeUnit.SECONDS);

      assertThat(diagnostics).isEmpty();
      assertThat(result.decision()).contains("approve");
      synchronized (threads) {
        assertThat(threads).singleElement().asString().startsWith("svc-pool-exec-");
      }
    }
  }

  @Test
  void anAsyncFailureCompletesTheFutureWithTheError() {
    try (Pool pool = Pool.create(Fixtures.engine(), 1)) {
      CompletableFuture<EvalResult> missing =
          pool.evaluateAsync("refund.desk", refund(1, "web"), EvalOptions.defaults());
      CompletableFuture<List<Diagnostic>> broken = pool.compileAsync("refund.desk", BROKEN, CompileOptions.defaults());

      assertThatThrownBy(() -> missing.get(30, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(NoPolicyException.class);
      assertThatThrownBy(() -> broken.get(30, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(EngineException.class);
    }
  }

  @Test
  void aClosedPoolRefusesEveryCallAndClosingAgainDoesNothing() {
    Pool pool = Pool.create(Fixtures.engine(), 2);
    installRefund(pool, "refund.desk");

    pool.close();
    pool.close();

    String closed = "the Pool is closed; create a new one";
    assertThatThrownBy(() -> pool.evaluate("refund.desk", refund(1, "web")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(closed);
    assertThatThrownBy(() -> installRefund(pool, "refund.other"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(closed);
    assertThatThrownBy(() -> pool.remove("refund.desk")).isInstanceOf(IllegalStateException.class).hasMessage(closed);
    assertThatThrownBy(() -> pool.evaluateAsync("refund.desk", refund(1, "web"), EvalOptions.defaults()).join())
        .hasCauseInstanceOf(IllegalStateException.class);
  }

  @Test
  void closingWakesACallerWaitingForAnInstance() throws Exception {
    Pool pool = Pool.create(Fixtures.engine(), 1);
    installRefund(pool, "refund.desk");
    HeldInstance held = HeldInstance.hold(pool, "refund.desk");
    Thread waiter = new Thread(() -> pool.evaluate("refund.desk", refund(1, "web")));
    List<Throwable> failures = new ArrayList<>();
    waiter.setUncaughtExceptionHandler((t, e) -> failures.add(e));
    waiter.start();
    await().until(() -> waiter.getState() == Thread.State.WAITING);

    pool.close();
    waiter.join();

    assertThat(failures).singleElement().isInstanceOf(IllegalStateException.class);
    held.release();
    assertThat(pool.stats().idle()).as("the lent instance was closed, not given back").isZero();
  }

  private static String decide(Pool pool, int amount) {
    return pool.evaluate("refund.desk", refund(amount, "web")).decision().orElseThrow();
  }

}
