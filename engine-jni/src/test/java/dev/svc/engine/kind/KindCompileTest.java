package dev.svc.engine.kind;

import static dev.svc.engine.kind.CoverageKinds.NOTIFY;
import static dev.svc.engine.kind.CoverageKinds.PAGE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.svc.engine.CompileOptions;
import dev.svc.engine.Engine;
import dev.svc.engine.EngineException;
import dev.svc.engine.EvalFailure;
import dev.svc.engine.EvalResult;
import dev.svc.engine.HostFunction;
import dev.svc.engine.Policy;
import dev.svc.engine.ResultShape;
import dev.svc.engine.SourceFile;
import dev.svc.engine.Stub;
import dev.svc.engine.internal.AbiCodec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Kind#compile}: a policy compiled against a Java-defined kind over the real engine.wasm,
 * and its results read through the kind's decisions (bindings.md §13.7 and §14).
 */
@ExtendWith(SharedEngine.class)
class KindCompileTest {

  private static final Decision READ =
      Decision.of("read", "member", "oncall").field("scope", Type.STRING, "all");
  private static final Decision ADMIN =
      Decision.of("admin", "oncall").field("ttl", Type.DURATION, "8h");
  private static final Type.Structure USER =
      Type.structure("User").field("groups", Type.list(Type.STRING)).field("oncall", Type.BOOL);

  /** Grants every decision that fired. */
  private static final Kind GRANTS =
      Kind.builder("Grants").version(1).input("user", USER).collectAll(READ, ADMIN).build();

  /** Grants only the top rank of what fired: admin over read. */
  private static final Kind RANKED_GRANTS =
      Kind.builder("RankedGrants")
          .version(1)
          .input("user", USER)
          .collectAll(READ, ADMIN)
          .precedence(ADMIN, READ)
          .build();

  private static final String GRANT_RULES =
      """

      when "eng" in user.groups {
        read(reason: member)
        admin(reason: oncall, ttl: 2h)
      }

      when user.oncall {
        read(reason: oncall, scope: "prod")
        admin(reason: oncall, ttl: 1h)
      }
      """;

  private static final Map<String, Object> ENGINEER_ONCALL =
      Map.of("user", Map.of("groups", List.of("eng"), "oncall", true));
  private static final Map<String, Object> ONCALL =
      Map.of("user", Map.of("groups", List.of(), "oncall", true));

  record Page(String oncall) {}

  record Notice(String channel) {}

  record Scope(String scope) {}

  record Ttl(Duration ttl) {}

  private static SourceFile grantsPolicy(String kind) {
    return SourceFile.of("grants/main.sigil", "policy grants.main: " + kind + "@1\n" + GRANT_RULES);
  }

  private static SourceFile alertsPolicy() {
    return SourceFile.of("alerts.sigil", CoverageKinds.alertRouting().policy());
  }

  private static Map<String, Object> alert(String severity) {
    return Map.of(
        "alert",
        Map.of("name", "disk", "severity", severity, "labels", Map.of(), "firing_for", "5m"),
        "teams",
        List.of());
  }

  static List<CoverageKinds.Case> coverageKinds() {
    return CoverageKinds.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("coverageKinds")
  void eachCoverageKindCompilesItsPolicyWithTheKindFileAdded(
      CoverageKinds.Case kind, Engine engine) {
    SourceFile policy = SourceFile.of("policy.sigil", kind.policy());

    try (Policy compiled = kind.kind().compile(engine, List.of(policy))) {
      assertThat(compiled.diagnostics()).isEmpty();
    }
  }

  @Test
  void aDecisionWithoutFieldsMatchesAnEmptyPayload(Engine engine) {
    CoverageKinds.Case minimal = CoverageKinds.minimal();
    Decision ok = Decision.of("ok", "yes");
    SourceFile policy = SourceFile.of("minimal/main.sigil", minimal.policy());

    try (Policy compiled = minimal.kind().compile(engine, List.of(policy))) {
      EvalResult me = compiled.eval(Map.of("who", "me"));

      assertThat(ok.match(me)).contains(AbiCodec.MAPPER.createObjectNode());
      assertThat(ok.matchAll(me))
          .extracting(Matched::policy)
          .containsExactly(Optional.of("minimal.main"));
    }
  }

  @Test
  void theKindsImplementationsAnswerItsPoliciesHostCalls(Engine engine) {
    Kind routing = CoverageKinds.alertRouting().kind();

    try (Policy policy = routing.compile(engine, List.of(alertsPolicy()))) {
      EvalResult paged = policy.eval(alert("critical"));

      assertThat(PAGE.match(paged, Page.class)).contains(new Page("oncall for disk"));
      assertThat(PAGE.reason("critical_alert").is(paged)).isTrue();
      assertThat(paged.shape()).contains(new ResultShape(false, false));
    }
  }

  @Test
  void theOptionsFunctionsReplaceTheKindsOfTheSameName(Engine engine) {
    Kind routing = CoverageKinds.alertRouting().kind();
    CompileOptions options =
        CompileOptions.defaults()
            .withFunction("oncall_for", HostFunction.of(String.class, alert -> "ana"));

    try (Policy policy =
        routing.compile(engine, List.of(alertsPolicy()), KindCompileOptions.of(options))) {
      assertThat(PAGE.match(policy.eval(alert("critical")), Page.class)).contains(new Page("ana"));
    }
  }

  @Test
  void aStubInTheOptionsAnswersInPlaceOfTheKindsImplementation(Engine engine) {
    Kind routing = CoverageKinds.alertRouting().kind();
    CompileOptions stubbed = CompileOptions.defaults().withStub("oncall_for", Stub.returning("bo"));

    try (Policy policy =
        routing.compile(engine, List.of(alertsPolicy()), KindCompileOptions.of(stubbed))) {
      assertThat(PAGE.match(policy.eval(alert("critical")), Page.class)).contains(new Page("bo"));
    }
  }

  @Test
  void theDefaultOutcomeMatchesWithItsPayloadDefaults(Engine engine) {
    try (Policy policy =
        CoverageKinds.alertRouting().kind().compile(engine, List.of(alertsPolicy()))) {
      EvalResult unrouted = policy.eval(alert("warning"));

      assertThat(NOTIFY.reason("unrouted").is(unrouted)).isTrue();
      assertThat(NOTIFY.match(unrouted, Notice.class)).contains(new Notice("#alerts"));
      assertThat(PAGE.match(unrouted)).isEmpty();
      assertThat(NOTIFY.matchAll(unrouted))
          .singleElement()
          .satisfies(m -> assertThat(m.policy()).isEmpty());
    }
  }

  @Test
  void aFailedEvaluationIsMatchedByItsFallback(Engine engine) {
    CompileOptions failing =
        CompileOptions.defaults()
            .withFunction(
                "oncall_for",
                args -> {
                  throw new IllegalStateException("rota unreachable");
                });

    try (Policy policy =
        CoverageKinds.alertRouting()
            .kind()
            .compile(engine, List.of(alertsPolicy()), KindCompileOptions.of(failing))) {
      EvalResult failed = policy.eval(alert("critical"));

      assertThat(failed.error()).hasValueSatisfying(e -> assertThat(e.kind()).isEqualTo(EvalFailure.Kind.RUNTIME));
      assertThat(NOTIFY.reason("unrouted").is(failed)).isTrue();
      assertThat(PAGE.match(failed)).isEmpty();
    }
  }

  @Test
  void aKindFileAmongTheTrustedFilesIsNotAddedAgain(Engine engine) {
    Kind routing = CoverageKinds.alertRouting().kind();
    CompileOptions trusted = CompileOptions.defaults().withTrustedFiles(List.of(routing.file()));

    try (Policy policy =
        routing.compile(engine, List.of(alertsPolicy()), KindCompileOptions.of(trusted))) {
      assertThat(NOTIFY.reason("unrouted").is(policy.eval(alert("warning")))).isTrue();
    }
  }

  @Test
  void aStaleKindFileStopsTheCompile(Engine engine) {
    Kind routing = CoverageKinds.alertRouting().kind();
    SourceFile stale =
        SourceFile.of("alert_routing.sigil", routing.schema().replace("#alerts", "#old"));

    assertThatThrownBy(() -> routing.compile(engine, List.of(stale, alertsPolicy())))
        .isInstanceOf(EngineException.class)
        .hasMessageStartingWith(
            "alert_routing.sigil declares kind AlertRouting, but not as this program defines it");
  }

  @Test
  void aCollectingKindsResultIsReadWithMatchAll(Engine engine) {
    try (Policy policy = GRANTS.compile(engine, List.of(grantsPolicy("Grants")))) {
      EvalResult granted = policy.eval(ENGINEER_ONCALL);

      assertThat(granted.shape()).contains(new ResultShape(true, false));
      assertThat(READ.matchAll(granted, Scope.class))
          .extracting(Matched::reason, Matched::payload)
          .containsExactly(tuple("member", new Scope("all")), tuple("oncall", new Scope("prod")));
      assertThat(ADMIN.matchAll(granted, Ttl.class))
          .extracting(Matched::payload)
          .containsExactlyInAnyOrder(new Ttl(Duration.ofHours(1)), new Ttl(Duration.ofHours(2)));
      assertThatThrownBy(() -> READ.match(granted)).isInstanceOf(EngineException.class);
      assertThatThrownBy(() -> ADMIN.reason("oncall").is(granted))
          .isInstanceOf(EngineException.class);
    }
  }

  @Test
  void aCollectingKindThatFiresNothingGrantsNothing(Engine engine) {
    try (Policy policy = GRANTS.compile(engine, List.of(grantsPolicy("Grants")))) {
      EvalResult nothing =
          policy.eval(Map.of("user", Map.of("groups", List.of(), "oncall", false)));

      assertThat(READ.matchAll(nothing)).isEmpty();
      assertThat(ADMIN.matchAll(nothing)).isEmpty();
    }
  }

  @Test
  void aRankedCollectingKindsSingleTopReadsWithMatch(Engine engine) {
    try (Policy policy = RANKED_GRANTS.compile(engine, List.of(grantsPolicy("RankedGrants")))) {
      EvalResult oncall = policy.eval(ONCALL);

      assertThat(oncall.collect()).isTrue();
      assertThat(ADMIN.match(oncall, Ttl.class)).contains(new Ttl(Duration.ofHours(1)));
      assertThat(ADMIN.reason("oncall").is(oncall)).isTrue();
      assertThat(READ.match(oncall)).isEmpty();
    }
  }

  @Test
  void aRankedTopOfTwoEntriesHasNoSingleOutcome(Engine engine) {
    try (Policy policy = RANKED_GRANTS.compile(engine, List.of(grantsPolicy("RankedGrants")))) {
      EvalResult both = policy.eval(ENGINEER_ONCALL);

      assertThat(ADMIN.match(both)).isEmpty();
      assertThat(ADMIN.reason("oncall").is(both)).isFalse();
      assertThat(ADMIN.matchAll(both)).hasSize(2);
      assertThat(READ.matchAll(both)).isEmpty();
    }
  }

  @Test
  void withoutTheKindsShapeARankedCollectingResultIsRefusedItsTop(Engine engine) {
    List<SourceFile> files = List.of(RANKED_GRANTS.file(), grantsPolicy("RankedGrants"));

    try (Policy policy = engine.compile(files, CompileOptions.defaults())) {
      EvalResult oncall = policy.eval(ONCALL);

      assertThat(oncall.shape()).isEmpty();
      assertThatThrownBy(() -> ADMIN.match(oncall)).isInstanceOf(EngineException.class);
      assertThat(ADMIN.match(policy.stampResults(RANKED_GRANTS.resultShape()).eval(ONCALL)))
          .isPresent();
    }
  }

  private static Map<String, Object> oncallUser() {
    return Map.of("user", Map.of("groups", List.of(), "oncall", true));
  }
}
