package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.engine.internal.AbiCodec;
import dev.svc.engine.internal.CallingThread;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Host functions implemented in Java, called by the real engine.wasm during {@link Policy#eval}. */
class HostFunctionTest extends EngineFixture {

  private static final SourceFile KIND = TestModules.labels("labels_kind.sigil");

  private static final SourceFile POLICY = TestModules.labels("labels.sigil");

  /** An owner as a Java record: the typed adapter decodes the struct argument into it. */
  record Owner(String name, String tier) {}

  private static final Map<String, Object> INPUT =
      Map.of(
          "label", "team,ops",
          "owner", new Owner("ana", "gold"),
          "since", Instant.parse("2026-03-01T08:00:00Z"),
          "age", Duration.ofMinutes(90));

  private static final HostFunction SPLIT =
      HostFunction.of(String.class, String.class, (text, sep) -> List.of(text.split(sep)));

  private static final HostFunction NOTHING_DESCRIBED = args -> JsonNodeFactory.instance.textNode("");

  private EvalResult eval(HostFunction split, HostFunction describe) {
    CompileOptions options =
        CompileOptions.defaults().withFunction("split", split).withFunction("describe", describe);
    try (Policy policy = engine.compile(List.of(KIND, POLICY), options)) {
      return policy.eval(INPUT);
    }
  }

  private static String failure(EvalResult result) {
    assertThat(result.decision()).contains("deny");
    assertThat(result.reason()).contains("fallback");
    EvalFailure error = result.error().orElseThrow();
    assertThat(error.kind()).isEqualTo(EvalFailure.Kind.RUNTIME);
    return error.message();
  }

  @Test
  void aRawFunctionGetsTheArgsAsJsonAndItsResultDecidesTheRule() {
    List<List<JsonNode>> calls = new ArrayList<>();
    HostFunction split =
        args -> {
          calls.add(args);
          return AbiCodec.MAPPER.valueToTree(List.of("team", "ops"));
        };

    EvalResult result = eval(split, NOTHING_DESCRIBED);

    assertThat(result.error()).isEmpty();
    assertThat(result.decision()).contains("allow");
    assertThat(result.reason()).contains("tagged");
    assertThat(calls).hasSize(1);
    assertThat(calls.get(0)).extracting(JsonNode::asText).containsExactly("team,ops", ",");
  }

  @Test
  void aTypedFunctionGetsStructsDurationsAndTimestampsAsJavaValues() {
    List<Object> seen = new ArrayList<>();
    HostFunction describe =
        HostFunction.of(
            Owner.class,
            Duration.class,
            Instant.class,
            (owner, age, since) -> {
              seen.addAll(List.of(owner, age, since));
              return "ok";
            });

    EvalResult result = eval(HostFunction.of(String.class, String.class, (a, b) -> List.of()), describe);

    assertThat(result.reason()).contains("described");
    assertThat(seen)
        .containsExactly(
            new Owner("ana", "gold"), Duration.ofMinutes(90), Instant.parse("2026-03-01T08:00:00Z"));
  }

  @Test
  void aThrownExceptionFailsTheEvaluationWithItsMessage() {
    HostFunction split =
        args -> {
          throw new IllegalStateException("label too long");
        };

    assertThat(failure(eval(split, NOTHING_DESCRIBED)))
        .isEqualTo("labels.sigil:3:16 (labels.check): host function split failed: label too long");
  }

  @Test
  void anExceptionWithoutAMessageIsNamedByItsClass() {
    HostFunction split =
        args -> {
          throw new UnsupportedOperationException();
        };

    assertThat(failure(eval(split, NOTHING_DESCRIBED)))
        .endsWith("host function split failed: java.lang.UnsupportedOperationException");
  }

  @Test
  void aResultOfTheWrongTypeFailsTheEvaluationQuotingTheDeclaration() {
    EvalResult result = eval(args -> IntNode.valueOf(7), NOTHING_DESCRIBED);

    assertThat(failure(result))
        .endsWith(
            "host function split failed: the host returned result: expected a list<string>, found a number");
    assertThat(result.error().orElseThrow().help())
        .isEqualTo(
            "the kind declares `fn split(string, string) -> list<string>`; return a value of its result type");
  }

  @Test
  void typedAdaptersCheckTheArgumentCountAndTypes() {
    HostFunction oneArg = HostFunction.of(String.class, text -> List.of(text));
    HostFunction intArgs = HostFunction.of(Integer.class, Integer.class, (a, b) -> List.of());

    assertThat(failure(eval(oneArg, NOTHING_DESCRIBED)))
        .endsWith("host function split failed: expected 1 argument, got 2");
    assertThat(failure(eval(intArgs, NOTHING_DESCRIBED)))
        .contains("host function split failed: argument 1: ")
        .contains("Integer");
  }

  @Test
  void aFutureIsRefusedBecauseHostFunctionsAreSynchronous() {
    HostFunction split =
        HostFunction.of(String.class, String.class, (a, b) -> CompletableFuture.completedFuture(List.of()));

    assertThat(failure(eval(split, NOTHING_DESCRIBED)))
        .endsWith(
            "host function split failed: the result is a CompletableFuture; host functions must be"
                + " synchronous: return the value itself");
  }

  @Test
  void aFunctionTheCompileDidNotImplementFailsAsUnimplemented() {
    try (Policy policy =
        engine.compile(List.of(KIND, POLICY), CompileOptions.defaults().withFunction("split", SPLIT))) {
      assertThat(failure(policy.eval(INPUT)))
          .endsWith("host function describe failed: no implementation in this sigil binary");
    }
  }

  @Test
  void aNameTheKindDoesNotDeclareIsRefusedWithASuggestion() {
    CompileOptions options = CompileOptions.defaults().withFunction("splt", SPLIT);

    assertThatThrownBy(() -> engine.compile(List.of(KIND, POLICY), options))
        .isInstanceOf(EngineException.class)
        .extracting(e -> ((EngineException) e).message(), e -> ((EngineException) e).help())
        .containsExactly(
            "functions: the kind Labels has no host function splt",
            "did you mean \"split\"? the kind declares: split, describe");
  }

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  @Timeout(value = 60, unit = TimeUnit.SECONDS) // a deadlock would hang, not fail
  void aFunctionCallingBackIntoItsOwnEngineFailsInsteadOfDeadlocking(CallingThread thread)
      throws Exception {
    HostFunction reentrant =
        args -> {
          engine.version();
          return AbiCodec.MAPPER.valueToTree(List.of());
        };

    thread.run(
        () ->
            assertThat(failure(eval(reentrant, NOTHING_DESCRIBED)))
                .endsWith(
                    "host function split failed: the module is busy: a host function can't call"
                        + " back into the instance that runs it"));
    assertThat(engine.version().version()).isNotEmpty();
  }

  @Test
  void aVirtualMachineErrorStopsTheInstance() {
    HostFunction split =
        args -> {
          throw new OutOfMemoryError("simulated");
        };

    assertThatThrownBy(() -> eval(split, NOTHING_DESCRIBED)).isInstanceOf(StoppedException.class);
    assertThat(engine.stopped()).isPresent();
  }

  @Test
  void aFunctionRunningPastTheHardDeadlineStopsTheInstance() {
    try (Engine tight = Engine.create(TestModules.engine(), Limits.defaults().withGrace(Duration.ofMillis(20)))) {
      HostFunction slow =
          args -> {
            Thread.sleep(300);
            return AbiCodec.MAPPER.valueToTree(List.of());
          };
      CompileOptions options = CompileOptions.defaults().withFunction("split", slow);
      Policy policy = tight.compile(List.of(KIND, POLICY), options);

      assertThatThrownBy(() -> policy.evalWith(INPUT, EvalOptions.defaults().withTimeout(Duration.ofMillis(10))))
          .isInstanceOf(TimeoutException.class);
      assertThat(tight.stopped().orElseThrow()).hasMessageContaining("hard deadline");
    }
  }

  @Test
  void functionsAreInstalledOnlyForTheirOwnPolicysEvaluations() {
    CompileOptions both =
        CompileOptions.defaults().withFunction("split", SPLIT).withFunction("describe", NOTHING_DESCRIBED);
    try (Policy implemented = engine.compile(List.of(KIND, POLICY), both);
        Policy bare = engine.compile(List.of(KIND, POLICY), CompileOptions.defaults())) {
      assertThat(implemented.eval(INPUT).reason()).contains("tagged");
      assertThat(failure(bare.eval(INPUT)))
          .endsWith("host function split failed: no implementation in this sigil binary");
    }
  }
}
