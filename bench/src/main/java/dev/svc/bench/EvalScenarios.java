package dev.svc.bench;

import dev.svc.engine.CompileOptions;
import dev.svc.engine.EvalFailure;
import dev.svc.engine.EvalResult;
import dev.svc.engine.SourceFile;
import java.util.List;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * {@code policy.eval} from Java through JNI for the evaluations issue #5 names besides the ranked
 * decision ({@link EvalRoundTrip}): a composed policy (an import and two invocations), a conflict of
 * an exclusive set, a failed assert, and the default outcome when no rule fires; sampled like every
 * {@link OnePolicy}, so the report has each one's median and p99.
 */
public class EvalScenarios extends OnePolicy {

  private static final List<SourceFile> FILES =
      List.of(
          SourceFile.of(
              "kind.sigil",
              """
              kind Gate version 1

              input actor: string
              input owners: list<string>
              input risk: int

              decision deny {
                reason: risky | conflicting | no_rule
              }

              decision hold {
                reason: frozen
              }

              decision open {
                reason: owner | maintenance
              }

              collect one
              precedence deny > hold > open
              exclusive hold, open.maintenance

              conflict deny(reason: conflicting)
              default deny(reason: no_rule)
              """),
          SourceFile.of(
              "gate/common.sigil",
              """
              module gate.common: Gate@1

              pub let is_owner = actor in owners
              """),
          SourceFile.of(
              "gate/owner.sigil",
              """
              policy gate.owner: Gate@1

              use gate.common.{is_owner}

              param max_risk: int = 5

              when is_owner and risk <= max_risk {
                open(reason: owner)
              }
              """),
          SourceFile.of(
              "gate/composed.sigil",
              """
              policy gate.composed: Gate@1

              use gate.common
              use gate.owner

              owner(max_risk: 3)
              owner(max_risk: 7)

              when risk > 9 and not common.is_owner {
                deny(reason: risky)
              }
              """),
          SourceFile.of(
              "gate/clash.sigil",
              """
              policy gate.clash: Gate@1

              when risk > 5 {
                hold(reason: frozen)
              }

              when actor in owners {
                open(reason: maintenance)
              }
              """),
          SourceFile.of(
              "gate/asserted.sigil",
              """
              policy gate.asserted: Gate@1

              assert("named_actor", actor != "")

              when actor in owners {
                open(reason: owner)
              }
              """),
          SourceFile.of(
              "gate/fallback.sigil",
              """
              policy gate.fallback: Gate@1

              when risk > 9 {
                deny(reason: risky)
              }
              """));

  /** Which evaluation: the policy evaluated and what its result must show. */
  public enum Scenario {
    /** An import and two invocations; one invoked rule decides. */
    COMPOSED("gate.composed", "{\"actor\": \"ana\", \"owners\": [\"ana\"], \"risk\": 2}", "owner", null),
    /** Both sides of an exclusive set fire: the kind's conflict outcome. */
    CONFLICT("gate.clash", "{\"actor\": \"ana\", \"owners\": [\"ana\"], \"risk\": 6}", "conflicting", EvalFailure.Kind.CONFLICT),
    /** An input assert fails: the default outcome with an assertion error. */
    FAILED_ASSERT("gate.asserted", "{\"actor\": \"\", \"owners\": [], \"risk\": 1}", "no_rule", EvalFailure.Kind.ASSERTION),
    /** No rule fires: the kind's default. */
    FALLBACK("gate.fallback", "{\"actor\": \"ana\", \"owners\": [], \"risk\": 1}", "no_rule", null);

    final String policy;
    final String input;
    final String reason;
    /** The failure the evaluation ends with; null when it succeeds. */
    final EvalFailure.Kind errorKind;

    Scenario(String policy, String input, String reason, EvalFailure.Kind errorKind) {
      this.policy = policy;
      this.input = input;
      this.reason = reason;
      this.errorKind = errorKind;
    }
  }

  @Param
  public Scenario scenario;

  @Setup(Level.Trial)
  public void start() throws Exception {
    EvalResult result =
        start(FILES, CompileOptions.defaults().withPolicy(scenario.policy), scenario.input);
    EvalFailure.Kind errorKind = result.error().map(EvalFailure::kind).orElse(null);
    if (!result.reason().orElse("").equals(scenario.reason) || errorKind != scenario.errorKind) {
      throw new IllegalStateException("scenario " + scenario + " evaluates otherwise: " + result);
    }
  }
}
