package dev.svc.engine;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.svc.engine.internal.AbiCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Engine#compile} and {@link Policy} over the real engine.wasm. */
class PolicyTest extends EngineFixture {

  private static final SourceFile KIND =
      SourceFile.of(
          "kind.sigil",
          """
          kind Door version 1

          input floor: int
          input names: list<string>

          decision deny {
            reason: closed | no_rule
          }

          decision allow {
            reason: member
            minutes: int = 5
          }

          collect one
          precedence deny > allow

          default deny(reason: no_rule)
          """);

  private static final SourceFile MAIN =
      SourceFile.of(
          "door/main.sigil",
          """
          policy door.main: Door@1

          when floor > 1 {
            allow(reason: member, minutes: floor)
          }

          when floor > 5 {
            deny(reason: closed)
          }
          """);

  /** Jackson refuses a bean without properties. */
  static final class Opaque {}

  @Test
  void anInputJacksonCannotWriteIsRefusedAndTheInstanceWorksOn() {
    try (Policy policy = engine.compile(List.of(KIND, MAIN), CompileOptions.defaults())) {
      assertThatThrownBy(() -> policy.eval(Map.of("floor", new Opaque())))
          .isInstanceOf(EngineException.class)
          .hasMessageStartingWith("the input can't be encoded as JSON: ");
      assertThat(engine.stopped()).isEmpty();
      assertThat(policy.eval(Map.of("floor", 3)).decision()).contains("allow");
    }
  }

  /** An input record with a float Jackson would write as the string "NaN". */
  record Reading(double level) {}

  @Test
  void anInputWithANanOrInfiniteFloatIsRefusedBeforeTheModuleSeesIt() {
    try (Policy policy = engine.compile(List.of(KIND, MAIN), CompileOptions.defaults())) {
      for (Object input :
          List.of(
              Map.of("floor", Double.NaN),
              Map.of("floor", new Reading(Double.POSITIVE_INFINITY)),
              Map.of("floor", List.of(1.0f, Float.NEGATIVE_INFINITY)),
              AbiCodec.MAPPER.createObjectNode().put("floor", Double.NaN))) {
        assertThatThrownBy(() -> policy.eval(input))
            .as("%s", input)
            .isInstanceOfSatisfying(
                EngineException.class,
                e -> {
                  assertThat(e.message())
                      .startsWith("the input can't be encoded as JSON: ")
                      .containsPattern("(NaN|-?Infinity) isn't a JSON number");
                  assertThat(e.help()).endsWith("no NaN or infinite float (JSON has no number for them)");
                });
      }
      assertThat(engine.stopped()).isEmpty();
      assertThat(policy.eval(Map.of("floor", 3)).decision()).contains("allow");
    }
  }

  @Test
  void anInputNested100000DeepIsRefusedAndTheInstanceWorksOn() {
    try (Policy policy = engine.compile(List.of(KIND, MAIN), CompileOptions.defaults())) {
      String deep = "[".repeat(100_000) + "]".repeat(100_000);

      assertThat(engine.call("{\"op\":\"eval\",\"handle\":" + policy.handle() + ",\"input\":{\"names\":" + deep + "}}"))
          .startsWith("{\"ok\":false,");
      assertThat(engine.stopped()).isEmpty();
      assertThat(policy.eval(Map.of("floor", 3)).decision()).contains("allow");
    }
  }

  @Test
  void aDecisionWithoutPayloadFieldsHasNoPayload() {
    try (Policy policy = engine.compile(List.of(KIND, MAIN), CompileOptions.defaults())) {
      EvalResult denied = policy.eval(Map.of("floor", 9));

      assertThat(denied.decision()).contains("deny");
      assertThat(denied.payload()).isEmpty();
      assertThat(denied.outcome()).singleElement().satisfies(e -> assertThat(e.payload()).isEmpty());
    }
  }

  @Test
  void aCompiledPolicyEvaluatesInputsToRecords() {
    try (Policy policy = engine.compile(List.of(KIND, MAIN), CompileOptions.defaults())) {
      assertThat(policy.name()).isEqualTo("door.main");
      assertThat(policy.handle()).isPositive();
      assertThat(policy.diagnostics()).isEmpty();

      EvalResult allowed = policy.eval(Map.of("floor", 3));
      assertThat(allowed.succeeded()).isTrue();
      assertThat(allowed.decision()).contains("allow");
      assertThat(allowed.reason()).contains("member");
      assertThat(allowed.payload().orElseThrow().get("minutes").asInt()).isEqualTo(3);
      assertThat(allowed.outcome()).singleElement().satisfies(
          e -> assertThat(e.position()).contains("door/main.sigil:4:3"));

      EvalResult ranked = policy.eval(Map.of("floor", 7));
      assertThat(ranked.decision()).contains("deny");
      assertThat(ranked.trace())
          .extracting(EvalEntry::decision, EvalEntry::outcome)
          .containsExactly(
              tuple("deny", true),
              tuple("allow", false));

      EvalResult fallback = policy.eval(Map.of());
      assertThat(fallback.reason()).contains("no_rule");
      assertThat(fallback.trace()).isEmpty();
    }
  }

  @Test
  void evalJsonIsTheRecordAsTheEngineWroteItWithoutTheEnvelope() {
    // The engine escapes > as Go does; a record read and written again by Jackson wouldn't.
    try (Policy policy = engine.compile(List.of(KIND, MAIN), CompileOptions.defaults())) {
      String ranked = new String(policy.evalJson(Map.of("floor", 7), EvalOptions.defaults()), UTF_8);

      assertThat(ranked)
          .isEqualTo(
              "{\"policy\":\"door.main\",\"decision\":\"deny\",\"reason\":\"closed\","
                  + "\"outcome\":[{\"decision\":\"deny\",\"reason\":\"closed\",\"policy\":\"door.main\","
                  + "\"position\":\"door/main.sigil:8:3\"}],"
                  + "\"trace\":[{\"decision\":\"deny\",\"reason\":\"closed\",\"policy\":\"door.main\","
                  + "\"position\":\"door/main.sigil:8:3\",\"conditions\":[\"floor \\u003e 5\"],\"outcome\":true},"
                  + "{\"payload\":{\"minutes\":7},\"decision\":\"allow\",\"reason\":\"member\","
                  + "\"policy\":\"door.main\",\"position\":\"door/main.sigil:4:3\"}]}");
      String raw =
          engine.call("{\"op\":\"eval\",\"handle\":" + policy.handle() + ",\"input\":{\"floor\":7}}");
      assertThat(raw).isEqualTo("{\"ok\":true," + ranked.substring(1));
    }
  }

  @Test
  void decideIsTheEvaluationWithoutItsTraceAndTheRecordWithoutItsTraceMember() {
    try (Policy policy = engine.compile(List.of(KIND, MAIN), CompileOptions.defaults())) {
      EvalResult whole = policy.eval(Map.of("floor", 7));
      EvalResult decided = policy.decide(Map.of("floor", 7));
      String record = new String(policy.evalJson(Map.of("floor", 7), EvalOptions.defaults()), UTF_8);
      String light = new String(policy.evalJson(Map.of("floor", 7), EvalOptions.defaults().withoutTrace()), UTF_8);

      assertThat(whole.trace()).hasSize(2);
      assertThat(decided).isEqualTo(
          new EvalResult(whole.payload(), whole.error(), whole.policy(), whole.decision(), whole.reason(),
              whole.outcome(), List.of(), whole.collect(), whole.shape()));
      assertThat(light).isEqualTo(record.substring(0, record.indexOf(",\"trace\":")) + "}");
    }
  }

  @Test
  void evalJsonRefusesAnInputThatDoesntFitLikeEval() {
    try (Policy policy = engine.compile(List.of(KIND, MAIN), CompileOptions.defaults())) {
      assertThatThrownBy(() -> policy.evalJson(Map.of("flor", 3), EvalOptions.defaults()))
          .isInstanceOfSatisfying(
              EngineException.class,
              e -> assertThat(e.message()).isEqualTo("the input: flor: unknown input \"flor\""));
    }
  }

  @Test
  void anInputThatDoesntFitTheKindIsRefusedWithTheDecodersMessage() {
    try (Policy policy = engine.compile(List.of(KIND, MAIN), CompileOptions.defaults())) {
      assertThatThrownBy(() -> policy.eval(Map.of("flor", 3)))
          .isInstanceOfSatisfying(
              EngineException.class,
              e -> {
                assertThat(e.message()).isEqualTo("the input: flor: unknown input \"flor\"");
                assertThat(e.help()).startsWith("did you mean \"floor\"?");
              });
      assertThat(policy.eval(Map.of("floor", 2)).decision()).contains("allow");
    }
  }

  @Test
  void aTimeoutEndsTheEvaluationCanceledAndTheInstanceWorksOn() {
    SourceFile slow =
        SourceFile.of(
            "door/main.sigil",
            """
            policy door.main: Door@1

            when any n in names: (any m in names: m == n and n == "zz") {
              allow(reason: member)
            }
            """);
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 4000; i++) {
      names.add("n" + i);
    }
    try (Policy policy = engine.compile(List.of(KIND, slow), CompileOptions.defaults())) {
      EvalResult canceled =
          policy.evalWith(
              Map.of("floor", 1, "names", names),
              EvalOptions.defaults().withTimeout(Duration.ofMillis(1)));
      assertThat(canceled.error()).map(EvalFailure::kind).contains(EvalFailure.Kind.CANCELED);
      assertThat(canceled.reason()).contains("no_rule");
      assertThat(policy.eval(Map.of("names", List.of("zz"))).decision()).contains("allow");
    }
    assertThat(engine.stopped()).isEmpty();
  }

  @Test
  void aClosedPolicyIsGoneAndClosingTwiceIsHarmless() {
    Policy policy = engine.compile(List.of(KIND, MAIN), CompileOptions.defaults());
    policy.close();
    policy.close();
    for (ThrowingCallable use :
        List.<ThrowingCallable>of(
            () -> policy.eval(Map.of("floor", 3)),
            () -> policy.evalWith(Map.of("floor", 3), EvalOptions.defaults()),
            () -> policy.evalJson(Map.of("floor", 3), EvalOptions.defaults()),
            policy::explain)) {
      assertThatThrownBy(use)
          .isInstanceOfSatisfying(
              EngineException.class,
              e -> {
                assertThat(e.message()).isEqualTo("policy door.main was released");
                assertThat(e.help()).isEqualTo("compile it again to evaluate it");
              });
    }
    assertThat(engine.call("{\"op\":\"eval\",\"handle\":" + policy.handle() + ",\"input\":{}}"))
        .as("the handle is gone from the engine")
        .contains("no compiled policy has handle");
    try (Policy next = engine.compile(List.of(KIND, MAIN), CompileOptions.defaults())) {
      assertThat(next.handle()).isGreaterThan(policy.handle());
    }
  }

  @Test
  void problemsInDocumentsTheRootDoesntUseAreThePolicysDiagnostics() {
    SourceFile other =
        SourceFile.of("other.sigil", "policy other: Door@1\n\nwhen nope {\n  allow(reason: member)\n}\n");

    try (Policy policy = engine.compile(List.of(KIND, MAIN, other), CompileOptions.defaults().withPolicy("door.main"))) {
      assertThat(policy.diagnostics())
          .extracting(Diagnostic::render)
          .containsExactly(
              "other.sigil:3:6: error: unknown name `nope` (help: names come from the kind's inputs, host"
                  + " functions, decisions and enum values, and the document's params, lets and imports)");
      assertThat(policy.eval(Map.of("floor", 3)).decision()).contains("allow");
    }
  }

  /** A policy that calls its host function {@code tick} and says yes when it answers true. */
  private Policy tick(HostFunction tick) {
    return tick(engine, tick);
  }

  private static Policy tick(Engine engine, HostFunction tick) {
    SourceFile kind =
        SourceFile.of(
            "kind.sigil",
            "kind Tick version 1\n\nfn tick() -> bool\n\ndecision ok {\n  reason: yes | no\n}\n\n"
                + "collect one\nprecedence ok\n\ndefault ok(reason: no)\n");
    SourceFile main = SourceFile.of("tick.sigil", "policy tick: Tick@1\n\nwhen tick() {\n  ok(reason: yes)\n}\n");
    return engine.compile(List.of(kind, main), CompileOptions.defaults().withFunction("tick", tick));
  }

  /** Compiles a policy and forgets it unclosed; its handle. */
  private long compileAndForget() {
    return engine.compile(List.of(KIND, MAIN), CompileOptions.defaults()).handle();
  }

  /** Whether the engine still holds a compiled policy under {@code handle}. */
  private boolean holds(long handle) {
    String answer = engine.call("{\"op\":\"eval\",\"handle\":" + handle + ",\"input\":{}}");
    return !answer.contains("no compiled policy has handle " + handle);
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS) // a cleaner that never runs would loop, not fail
  void aPolicyCollectedUnclosedIsReleasedAtTheEnginesNextCall() {
    long handle = compileAndForget();

    while (holds(handle)) {
      System.gc();
    }

    try (Policy next = engine.compile(List.of(KIND, MAIN), CompileOptions.defaults())) {
      assertThat(next.eval(Map.of("floor", 3)).decision()).contains("allow");
    }
  }

  @Test
  void aPolicyClosedInsideAHostFunctionOfItsEngineIsReleasedAtTheNextCall() {
    Policy inner = engine.compile(List.of(KIND, MAIN), CompileOptions.defaults());
    HostFunction closesInner = HostFunction.of(() -> { inner.close(); return true; });

    try (Policy outer = tick(closesInner)) {
      assertThat(outer.eval(Map.of()).reason()).contains("yes");
    }

    assertThat(holds(inner.handle())).isFalse();
  }

  @Test
  void aPolicyOutlivesItsEngineAndTheInstanceGoesWithTheLastOfThem() {
    Engine other = Engine.create(TestModules.engine());
    Policy first = other.compile(List.of(KIND, MAIN), CompileOptions.defaults());
    Policy second = other.compile(List.of(KIND, MAIN), CompileOptions.defaults());
    other.close();

    assertThatThrownBy(() -> other.compile(List.of(KIND, MAIN), CompileOptions.defaults()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the Engine is closed; create a new one");
    assertThatThrownBy(other::memorySize).isInstanceOf(IllegalStateException.class);
    assertThat(first.eval(Map.of("floor", 3)).decision()).contains("allow");
    first.close();
    assertThat(second.eval(Map.of("floor", 7)).decision()).contains("deny");
    assertThat(second.explain().rules()).isNotEmpty();
    second.close();
    assertThatThrownBy(() -> second.eval(Map.of("floor", 3)))
        .isInstanceOf(EngineException.class)
        .hasMessageStartingWith("policy door.main was released");
  }

  @Test
  void theLastPolicyClosedInsideItsOwnHostFunctionLetsItsEvaluationFinish() {
    Engine other = Engine.create(TestModules.engine());
    AtomicReference<Policy> self = new AtomicReference<>();
    self.set(tick(other, HostFunction.of(() -> { self.get().close(); return true; })));
    other.close();

    assertThat(self.get().eval(Map.of()).reason()).contains("yes");
    assertThatThrownBy(() -> self.get().eval(Map.of()))
        .isInstanceOf(EngineException.class)
        .hasMessageStartingWith("policy tick was released");
  }

  @Test
  void evaluationsFromManyThreadsOnOneEngineRunOneAtATimeAndDecideAsSerialOnes() throws Exception {
    try (Policy policy = engine.compile(List.of(KIND, MAIN), CompileOptions.defaults())) {
      Map<Integer, EvalResult> serial = new HashMap<>();
      for (int floor = 0; floor < 8; floor++) {
        serial.put(floor, policy.eval(Map.of("floor", floor)));
      }
      ExecutorService threads = Executors.newFixedThreadPool(8);
      try {
        List<Future<?>> running = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
          int first = t;
          running.add(
              threads.submit(
                  () -> {
                    for (int i = 0; i < 200; i++) {
                      int floor = (first + i) % 8;
                      assertThat(policy.eval(Map.of("floor", floor))).isEqualTo(serial.get(floor));
                    }
                  }));
        }
        for (Future<?> done : running) {
          done.get();
        }
      } finally {
        threads.shutdownNow();
      }
      assertThat(engine.stopped()).isEmpty();
    }
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS) // a call that didn't wait would deadlock or fail
  void aCallFromAnotherThreadWaitsForTheRunningOneInsteadOfFailing() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    HostFunction blocks =
        HostFunction.of(
            () -> {
              entered.countDown();
              release.await();
              return true;
            });
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try (Policy policy = tick(blocks)) {
      Future<EvalResult> evaluation = threads.submit(() -> policy.eval(Map.of()));
      entered.await();
      Future<VersionInfo> version = threads.submit(engine::version);

      assertThat(version).as("waits while the evaluation holds the instance").isNotDone();
      release.countDown();
      assertThat(evaluation.get().reason()).contains("yes");
      assertThat(version.get().platform()).isEqualTo("wasip1/wasm");
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void compileFailuresCarryTheDiagnostics() {
    SourceFile broken =
        SourceFile.of(
            "door/main.sigil", "policy door.main: Door@1\n\nwhen flor > 1 {\n  allow(reason: member)\n}\n");
    assertThatThrownBy(() -> engine.compile(List.of(KIND, broken), CompileOptions.defaults()))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo("door.main doesn't check, so nothing was compiled");
              assertThat(e.diagnostics())
                  .extracting(Diagnostic::message)
                  .containsExactly("unknown name `flor`");
            });
    assertThatThrownBy(
            () ->
                engine.compile(
                    List.of(KIND, MAIN), CompileOptions.defaults().withPolicy("nothing.*")))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> assertThat(e.message()).isEqualTo("no policy matches \"nothing.*\""));
    assertThat(engine.stopped()).isEmpty();
  }
}
