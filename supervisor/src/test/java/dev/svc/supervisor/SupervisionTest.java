package dev.svc.supervisor;

import static dev.svc.supervisor.Fixtures.decideWeb;
import static dev.svc.supervisor.Fixtures.installRefund;
import static dev.svc.supervisor.Fixtures.onEveryInstance;
import static dev.svc.supervisor.Fixtures.refund;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.svc.engine.CompileOptions;
import dev.svc.engine.EngineModule;
import dev.svc.engine.EvalOptions;
import dev.svc.engine.Isolation;
import dev.svc.engine.Limits;
import dev.svc.engine.MemoryLimitException;
import dev.svc.engine.ModuleConfig;
import dev.svc.engine.NoPolicyException;
import dev.svc.engine.OutOfFuelException;
import dev.svc.engine.StoppedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The supervisor: a stopped instance fails its caller at once and is rebuilt in the background.
 *
 * <p>Runs once per {@link Isolation}: a pool of instances in host processes supervises alike.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Isolation.class)
class SupervisionTest {

  /** Where the pool's instances run. */
  @Parameter
  Isolation isolation;

  @ParameterizedTest
  @EnumSource(Kill.class)
  void aStoppedInstanceIsRebuiltWithEveryPolicyWhileTheOthersServe(Kill kill) {
    try (Pool pool = kill.pool(2, isolation)) {
      TestRecipe desk = TestRecipe.refund("refund.desk", 100);
      TestRecipe other = TestRecipe.refund("refund.other", 50);
      pool.install("refund.desk", desk);
      pool.install("refund.other", other);
      desk.holdAtGate();

      StoppedException stopped = kill.poison(pool, "refund.desk");

      assertThat(stopped).isInstanceOf(kill.error());
      desk.awaitHeld();
      assertThat(pool.stats()).as("serving with one instance fewer").isEqualTo(new PoolStats(2, 1, 2, 1, 1));
      for (int amount = 0; amount < 120; amount += 10) {
        assertThat(pool.evaluate("refund.desk", refund(amount, "web")).decision())
            .contains(Fixtures.decision(amount, "web", 100));
        assertThat(pool.evaluate("refund.other", refund(amount, "web")).decision())
            .contains(Fixtures.decision(amount, "web", 50));
      }
      desk.open();
      awaitFullPool(pool);

      assertThat(pool.stats()).isEqualTo(new PoolStats(2, 2, 2, 1, 0));
      for (TestRecipe recipe : List.of(desk, other)) {
        assertThat(recipe.threads()).hasSize(3).last().asString().startsWith("svc-pool-rebuild-");
        assertThat(recipe.engines()).doesNotHaveDuplicates();
      }
      assertThat(onEveryInstance(pool, "refund.other", p -> decideWeb(p, 70)))
          .containsExactly("deny", "deny");
    }
  }

  @Test
  void aStoppedInstanceKeepsItsErrorWhenTheInputRanOutOfMemory() {
    try (Pool pool = Kill.MEMORY.pool(1, isolation)) {
      installRefund(pool, "refund.desk");

      StoppedException stopped = Kill.MEMORY.poison(pool, "refund.desk");

      assertThat(stopped).isInstanceOf(MemoryLimitException.class);
      assertThat(stopped.message())
          .startsWith("the call needed more memory than the instance may have (16 MiB) and was stopped")
          .contains("memory allocation of");
      awaitFullPool(pool);
      assertThat(pool.evaluate("refund.desk", refund(40, "web")).decision()).contains("approve");
    }
  }

  @Test
  void installsAndRemovalsDuringARebuildReachTheRebuiltInstanceBeforeItServes() {
    try (Pool pool = Kill.FUEL.pool(2, isolation)) {
      TestRecipe desk = TestRecipe.refund("refund.desk", 100);
      pool.install("refund.desk", desk);
      installRefund(pool, "refund.gone");
      desk.holdAtGate();
      Kill.FUEL.poison(pool, "refund.desk");
      desk.awaitHeld();

      TestRecipe added = TestRecipe.refund("refund.added", 100);
      pool.install("refund.added", added);
      TestRecipe replaced = TestRecipe.refund("refund.desk", 20);
      pool.install("refund.desk", replaced);
      pool.remove("refund.gone");
      desk.open();
      awaitFullPool(pool);

      for (TestRecipe recipe : List.of(added, replaced)) {
        assertThat(recipe.threads()).as("validated, then rebuilt").hasSize(2);
        assertThat(recipe.threads().get(1)).startsWith("svc-pool-rebuild-");
      }
      assertThat(pool.names()).containsExactly("refund.added", "refund.desk");
      assertThat(onEveryInstance(pool, "refund.desk", p -> decideWeb(p, 40)))
          .containsExactly("deny", "deny");
      assertThat(answersOnEachInstance(pool, "refund.added", "refund.gone"))
          .allSatisfy(answer -> assertThat(answer).isInstanceOf(NoPolicyException.class));
      assertThat(added.threads()).as("no instance caught up on a lease").hasSize(2);
    }
  }

  @Test
  void aRollOutStopsWaitingForAnInstanceThatStartsRebuilding() throws Exception {
    try (Pool pool = Kill.FUEL.pool(2, isolation)) {
      TestRecipe desk = TestRecipe.refund("refund.desk", 100);
      pool.install("refund.desk", desk);
      HeldInstance held =
          HeldInstance.hold(
              pool, "refund.desk", p -> p.evalWith(refund(40, "web"), EvalOptions.defaults().withFuel(100)));
      CompletableFuture<Void> install = new CompletableFuture<>();
      Thread installer =
          new Thread(() -> {
            try {
              installRefund(pool, "refund.added");
              install.complete(null);
            } catch (RuntimeException e) {
              install.completeExceptionally(e);
            }
          });
      installer.start();
      await().until(() -> installer.getState() == Thread.State.WAITING);
      desk.holdAtGate();

      held.release();
      desk.awaitHeld();

      install.get(30, TimeUnit.SECONDS);
      assertThat(held.call()).isCompletedExceptionally();
      assertThat(pool.stats().rebuilding()).as("the rebuild is still held").isEqualTo(1);
      desk.open();
      awaitFullPool(pool);
      assertThat(onEveryInstance(pool, "refund.added", p -> decideWeb(p, 40)))
          .containsExactly("approve", "approve");
    }
  }

  @Test
  void aRecipeThatKeepsStoppingFreshInstancesIsLeftOutAfterThreeTries() {
    List<Throwable> failedTries = Collections.synchronizedList(new ArrayList<>());
    PoolListener listener = new PoolListener() {
      @Override
      public void rebuildFailed(Throwable cause) {
        failedTries.add(cause);
      }
    };
    PoolOptions options = PoolOptions.builder().size(2).listener(listener).isolation(isolation).build();
    try (Pool pool = Pool.create(Fixtures.fueled(), options)) {
      installRefund(pool, "refund.desk");
      TestRecipe killer = TestRecipe.refund("refund.killer", 100);
      pool.install("refund.killer", killer);
      killer.killEveryInstance();

      Kill.FUEL.poison(pool, "refund.desk");
      awaitFullPool(pool);

      assertThat(killer.threads()).hasSize(5);
      assertThat(failedTries).hasSize(3).allSatisfy(e -> assertThat(e).isInstanceOf(OutOfFuelException.class));
      assertThat(pool.stats().replaced()).as("the poisoned instance and three fresh ones").isEqualTo(4);
      assertThat(pool.rebuildFailures())
          .containsExactly(
              Map.entry(
                  "refund.killer",
                  "the call ran out of fuel and was stopped; the instance is stopped\n"
                      + "  help: raise the call's fuel limit; build a new instance to go on"));
      assertThat(answersOnEachInstance(pool, "refund.desk", "refund.killer"))
          .as("the rebuilt instance answers with the recipe's failure, the other one has the policy")
          .hasSize(2)
          .anySatisfy(answer -> assertThat(answer).isInstanceOf(OutOfFuelException.class))
          .anySatisfy(answer -> assertThat(answer).isEqualTo("approve"));

      installRefund(pool, "refund.killer");

      assertThat(pool.rebuildFailures()).isEmpty();
      assertThat(onEveryInstance(pool, "refund.killer", p -> decideWeb(p, 40)))
          .containsExactly("approve", "approve");
    }
  }

  @Test
  void aRebuildWhoseInstancesDontStartTriesAgainWhileThePoolServesUntilItCloses() {
    List<Throwable> failedTries = Collections.synchronizedList(new ArrayList<>());
    PoolListener listener = new PoolListener() {
      @Override
      public void rebuildFailed(Throwable cause) {
        failedTries.add(cause);
      }
    };
    List<Thread> before = poolThreads();
    EngineModule module = EngineModule.bundled(ModuleConfig.defaults().withFuel(true));
    Pool pool = Pool.create(module, PoolOptions.builder().size(2).listener(listener).isolation(isolation).build());
    installRefund(pool, "refund.desk");
    module.close();

    Kill.FUEL.poison(pool, "refund.desk");
    await().atMost(Duration.ofSeconds(30)).until(() -> failedTries.size() >= 3);

    assertThat(failedTries).allSatisfy(e -> assertThat(e).hasMessageStartingWith("the EngineModule is closed"));
    assertThat(pool.evaluate("refund.desk", refund(40, "web")).decision()).contains("approve");
    assertThat(pool.stats()).isEqualTo(new PoolStats(2, 1, 1, 1, 1));
    pool.close();
    assertThat(poolThreads()).containsExactlyInAnyOrderElementsOf(before);
  }

  @Test
  void anExceptionFromOutsideTheEngineReplacesTheInstance() {
    try (Pool pool = Pool.create(Fixtures.engine(), PoolOptions.builder().size(2).isolation(isolation).build())) {
      installRefund(pool, "refund.desk");

      assertThatThrownBy(() -> pool.withPolicy("refund.desk", p -> {
        throw new IllegalStateException("the caller's own bug");
      })).isInstanceOf(IllegalStateException.class).hasMessage("the caller's own bug");

      awaitFullPool(pool);
      assertThat(pool.stats().replaced()).isEqualTo(1);
      assertThat(onEveryInstance(pool, "refund.desk", p -> decideWeb(p, 40)))
          .containsExactly("approve", "approve");
    }
  }

  @Test
  void aStoppedInstanceCaughtInsideWithPolicyIsStillReplaced() {
    try (Pool pool = Kill.FUEL.pool(1, isolation)) {
      installRefund(pool, "refund.desk");

      String answer = pool.withPolicy("refund.desk", p -> {
        try {
          return p.evalWith(refund(40, "web"), EvalOptions.defaults().withFuel(100)).toString();
        } catch (OutOfFuelException e) {
          return "caught";
        }
      });

      assertThat(answer).isEqualTo("caught");
      awaitFullPool(pool);
      assertThat(pool.stats().replaced()).isEqualTo(1);
      assertThat(pool.evaluate("refund.desk", refund(40, "web")).decision()).contains("approve");
    }
  }

  @Test
  void closingDuringARebuildEndsItAndLeavesNoThreadsBehind() throws Exception {
    List<Thread> before = poolThreads();
    Pool pool = Kill.FUEL.pool(2, isolation);
    TestRecipe desk = TestRecipe.refund("refund.desk", 100);
    pool.install("refund.desk", desk);
    pool.evaluateAsync("refund.desk", refund(40, "web"), EvalOptions.defaults()).get(30, TimeUnit.SECONDS);
    desk.holdAtGate();
    Kill.FUEL.poison(pool, "refund.desk");
    desk.awaitHeld();
    assertThat(poolThreads()).anySatisfy(t -> assertThat(t.getName()).startsWith("svc-pool-rebuild-"))
        .anySatisfy(t -> assertThat(t.getName()).startsWith("svc-pool-exec-"));

    Thread closer = new Thread(pool::close);
    closer.start();
    await().until(() -> pool.stats().idle() == 0);
    desk.open();
    closer.join();

    assertThat(poolThreads()).containsExactlyInAnyOrderElementsOf(before);
    assertThat(pool.stats().rebuilding()).as("the rebuild ended without putting the instance back").isZero();
    assertThat(pool.stats().idle()).isZero();
  }

  @Test
  void everyEvaluationThatWasntPoisonedSucceedsWhileAKillerStopsInstances() throws Exception {
    PoolOptions options = PoolOptions.builder().size(3).limits(Limits.defaults().withGrace(Duration.ZERO)).isolation(isolation)
        .build();
    int kills = 24;
    try (Pool pool = Pool.create(Fixtures.fueled(), options)) {
      installRefund(pool, "refund.desk");
      pool.compile("refund.strict", Fixtures.refund("refund.strict", 20), CompileOptions.defaults());
      AtomicBoolean killing = new AtomicBoolean(true);
      AtomicInteger evaluations = new AtomicInteger();
      List<String> wrong = Collections.synchronizedList(new ArrayList<>());
      ExecutorService evaluators = Executors.newFixedThreadPool(4);
      List<Future<?>> running = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        Random random = new Random(i);
        running.add(evaluators.submit(() -> {
          while (killing.get()) {
            evaluateOnce(pool, random, wrong);
            evaluations.incrementAndGet();
          }
        }));
      }

      Random chooser = new Random(99);
      for (int i = 0; i < kills; i++) {
        Kill kill = chooser.nextBoolean() ? Kill.FUEL : Kill.HARD_DEADLINE;
        assertThat(kill.poison(pool, "refund.desk")).isInstanceOf(kill.error());
      }
      killing.set(false);
      for (Future<?> evaluator : running) {
        evaluator.get(60, TimeUnit.SECONDS);
      }
      evaluators.shutdown();

      assertThat(wrong).isEmpty();
      assertThat(evaluations.get()).isPositive();
      awaitFullPool(pool);
      assertThat(pool.stats()).isEqualTo(new PoolStats(3, 3, 2, kills, 0));
      assertThat(onEveryInstance(pool, "refund.strict", p -> decideWeb(p, 19)))
          .containsExactly("approve", "approve", "approve");
    }
  }

  private static void evaluateOnce(Pool pool, Random random, List<String> wrong) {
    int amount = random.nextInt(200);
    boolean strict = random.nextBoolean();
    String name = strict ? "refund.strict" : "refund.desk";
    String expected = Fixtures.decision(amount, "web", strict ? 20 : 100);
    try {
      String decision = pool.evaluate(name, refund(amount, "web")).decision().orElse("none");
      if (!decision.equals(expected)) {
        wrong.add(name + " decided " + decision + " for " + amount + ", not " + expected);
      }
    } catch (RuntimeException e) {
      wrong.add(name + " failed for " + amount + ": " + e);
    }
  }

  /**
   * What {@code probe} answers on each instance in turn: the instances after the first are reached
   * by holding the ones before, so with the pool's most-recently-used-first order every instance
   * answers once. An answer is the decision for a small web refund, or the exception.
   */
  private static List<Object> answersOnEachInstance(Pool pool, String holder, String probe) {
    List<Object> answers = new ArrayList<>();
    for (int held = 0; held < pool.stats().size(); held++) {
      answers.add(answerHolding(pool, holder, probe, held));
    }
    return answers;
  }

  private static Object answerHolding(Pool pool, String holder, String probe, int held) {
    if (held > 0) {
      return pool.withPolicy(holder, p -> answerHolding(pool, holder, probe, held - 1));
    }
    try {
      return pool.evaluate(probe, refund(40, "web")).decision().orElseThrow();
    } catch (RuntimeException e) {
      return e;
    }
  }

  private static void awaitFullPool(Pool pool) {
    await().atMost(Duration.ofSeconds(30)).until(() -> pool.stats().idle() == pool.stats().size());
  }

  private static List<Thread> poolThreads() {
    return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("svc-pool-")).toList();
  }
}
