package dev.svc.engine.kind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.NullNode;
import dev.svc.engine.EngineException;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@link KindBuilder}: every problem of bindings.md §13.2, one test each, in the spec's order, and
 * how they are reported together.
 */
class KindBuilderTest {

  private static final Decision OK = Decision.of("ok", "yes");
  private static final Decision A = Decision.of("a", "x", "y");
  private static final Decision B = Decision.of("b", "z");

  /** A sound kind that each test breaks in one way. */
  private static KindBuilder sound() {
    return Kind.builder("K").version(1).decisions(OK).defaultOutcome(OK.reason("yes"));
  }

  /** A collecting kind of {@code decisions}: sound unless they aren't. */
  private static KindBuilder collecting(Decision... decisions) {
    return Kind.builder("K").version(1).collectAll(decisions);
  }

  @Test
  void aSoundKindHasNoProblemsAndBuilds() {
    assertThat(sound().problems()).isEmpty();

    Kind kind = sound().build();

    assertThat(kind.name()).isEqualTo("K");
    assertThat(kind.version()).isEqualTo(1);
    assertThat(kind).hasToString("Kind[K version 1]");
  }

  @Test
  void everyProblemIsReportedInOneErrorInTheSpecsOrder() {
    KindBuilder broken =
        Kind.builder("Bad Name")
            .input("x", Type.STRING)
            .input("x", Type.INT)
            .decisions(Decision.of("ok", "yes", "yes"));

    assertThatThrownBy(broken::build)
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message())
                  .isEqualTo(
                      """
                      Kind.builder(Bad Name): invalid kind:
                        input x is declared twice
                        kind name "Bad Name" isn't an identifier (use letters, digits and \
                      underscores, like AlertRouting)
                        version 0 isn't a whole number from 1
                        accepts 1 isn't from 1 to the version, 0
                        decision ok declares reason yes twice
                        a `collect one` kind needs a default (set defaultOutcome to the outcome \
                      when no rule fires)""");
              assertThat(e.help())
                  .isEqualTo("fix every problem listed; the kind can't be exported until then");
              assertThat(e.isStopped()).isFalse();
            });
  }

  @Test
  void problemsListWhatBuildReports() {
    KindBuilder broken = sound().version(0);

    assertThat(broken.problems())
        .containsExactly(
            "version 0 isn't a whole number from 1", "accepts 1 isn't from 1 to the version, 0");
    assertThatThrownBy(broken::build)
        .hasMessageContaining("\n  version 0 isn't a whole number from 1\n");
  }

  @Test
  void nullIsRefusedNamingTheParameter() {
    assertThatThrownBy(() -> Kind.builder(null)).hasMessage("name");
    assertThatThrownBy(() -> sound().input("x", null)).hasMessage("type");
    assertThatThrownBy(() -> sound().function("f", null)).hasMessage("decl");
    assertThatThrownBy(() -> sound().decisions(OK, null)).hasMessage("decisions");
    assertThatThrownBy(() -> sound().exclusive((OutcomeRef[]) null)).hasMessage("members");
    assertThatThrownBy(() -> sound().defaultOutcome(null)).hasMessage("outcome");
  }

  @Nested
  class WhileDeclaring {

    @Test
    void anInputDeclaredTwice() {
      KindBuilder kind = sound().input("who", Type.STRING).input("who", Type.STRING);

      assertThat(kind.problems()).containsExactly("input who is declared twice");
    }

    @Test
    void aFunctionDeclaredTwice() {
      FnDecl decl = new FnDecl(List.of(), Type.BOOL);
      KindBuilder kind = sound().function("ping", decl).function("ping", decl);

      assertThat(kind.problems()).containsExactly("function ping is declared twice");
    }

    @Test
    void decisionsAndCollectBothSet() {
      KindBuilder kind = sound().collectAll(Decision.of("more", "yes"));

      assertThat(kind.problems())
          .containsExactly(
              "the kind sets both decisions and collect (decisions ranks them for `collect one`,"
                  + " collectAll applies them all; use one)");
    }
  }

  @Nested
  class Header {

    @Test
    void aKindNameThatIsNotAnIdentifier() {
      KindBuilder kind = Kind.builder("9lives").version(1).collectAll(OK);

      assertThat(kind.problems())
          .containsExactly(
              "kind name \"9lives\" isn't an identifier (use letters, digits and underscores, like"
                  + " AlertRouting)");
    }

    @Test
    void aVersionBelowOne() {
      KindBuilder kind = sound().version(-2).accepts(-2);

      assertThat(kind.problems())
          .containsExactly(
              "version -2 isn't a whole number from 1",
              "accepts -2 isn't from 1 to the version, -2");
    }

    @Test
    void acceptsAboveTheVersion() {
      assertThat(sound().version(2).accepts(3).problems())
          .containsExactly("accepts 3 isn't from 1 to the version, 2");
    }

    @Test
    void acceptsBelowOne() {
      assertThat(sound().accepts(0).problems())
          .containsExactly("accepts 0 isn't from 1 to the version, 1");
    }
  }

  @Nested
  class Decisions {

    @Test
    void noDecisions() {
      KindBuilder kind = Kind.builder("K").version(1);

      assertThat(kind.problems())
          .containsExactly(
              "the kind declares no decisions (set decisions, or collectAll for a collecting"
                  + " kind)");
    }

    @Test
    void aDecisionDeclaredTwice() {
      assertThat(collecting(OK, OK).problems()).containsExactly("decision ok is declared twice");
    }

    @Test
    void aDecisionNameThatIsNotAnIdentifier() {
      assertThat(collecting(Decision.of("ok!", "yes")).problems())
          .containsExactly("decision name \"ok!\" isn't an identifier");
    }

    @Test
    void aDecisionWithoutReasons() {
      assertThat(collecting(Decision.of("ok")).problems())
          .containsExactly("decision ok declares no reasons");
    }

    @Test
    void aReasonDeclaredTwice() {
      assertThat(collecting(Decision.of("ok", "yes", "no", "yes")).problems())
          .containsExactly("decision ok declares reason yes twice");
    }

    @Test
    void aReasonThatIsNotAnIdentifier() {
      assertThat(collecting(Decision.of("ok", "yes\n")).problems())
          .containsExactly("decision ok: reason \"yes\\n\" isn't an identifier");
    }

    @Test
    void aPayloadFieldDeclaredTwice() {
      Decision twice = OK.field("n", Type.INT).field("n", Type.STRING);

      assertThat(collecting(twice).problems())
          .containsExactly("decision ok: field n is declared twice");
    }
  }

  @Nested
  class Precedence {

    private static final String EVERY_DECISION =
        "precedence must list every decision of the kind once (the decisions are a, b)";

    @Test
    void aPrecedenceForACollectOneKind() {
      assertThat(sound().precedence(OK).problems())
          .containsExactly(
              "precedence is for a collecting kind (decisions already ranks them in order)");
    }

    @Test
    void aPrecedenceThatLeavesADecisionOut() {
      assertThat(collecting(A, B).precedence(A).problems()).containsExactly(EVERY_DECISION);
    }

    @Test
    void aPrecedenceThatNamesADecisionTwice() {
      assertThat(collecting(A, B).precedence(A, B, A).problems()).containsExactly(EVERY_DECISION);
    }

    @Test
    void aPrecedenceThatNamesAnUnknownDecision() {
      assertThat(collecting(A, B).precedence(A, B, OK).problems()).containsExactly(EVERY_DECISION);
    }

    @Test
    void anEmptyPrecedenceLeavesACollectingKindUnranked() {
      KindBuilder kind = collecting(A, B).precedence();

      assertThat(kind.problems()).isEmpty();
      assertThat(kind.build().schema()).endsWith("\ncollect all\n");
    }
  }

  @Nested
  class Fallbacks {

    private final Decision withField = Decision.of("d", "r").field("n", Type.INT);

    @Test
    void aCollectOneKindWithoutADefault() {
      assertThat(Kind.builder("K").version(1).decisions(OK).problems())
          .containsExactly(
              "a `collect one` kind needs a default (set defaultOutcome to the outcome when no rule"
                  + " fires)");
    }

    @Test
    void aConflictOutcomeOnACollectingKind() {
      assertThat(collecting(OK).conflict(OK.reason("yes")).problems())
          .containsExactly(
              "conflict is for a `collect one` kind (a collecting kind applies every decision, so"
                  + " nothing conflicts over the one outcome)");
    }

    @Test
    void aDefaultOfAnUnknownDecision() {
      assertThat(sound().defaultOutcome(new Outcome("nope", "yes")).problems())
          .containsExactly("default nope.yes: decision nope isn't one of the kind's");
    }

    @Test
    void aDefaultWithAnUnknownReason() {
      assertThat(sound().defaultOutcome(new Outcome("ok", "no")).problems())
          .containsExactly("default ok.no: decision ok has no reason no");
    }

    @Test
    void aDefaultWhosePayloadFieldHasNoDefault() {
      KindBuilder kind =
          Kind.builder("K").version(1).decisions(withField).defaultOutcome(withField.reason("r"));

      assertThat(kind.problems())
          .containsExactly(
              "default d.r: payload field n has no default (give it one with field(name, type,"
                  + " default))");
    }

    private KindBuilder withConflict(Outcome conflict) {
      return Kind.builder("K")
          .version(1)
          .decisions(OK, withField)
          .defaultOutcome(OK.reason("yes"))
          .conflict(conflict);
    }

    @Test
    void aConflictOutcomeIsCheckedLikeTheDefault() {
      KindBuilder unknownReason = withConflict(new Outcome("ok", "no"));
      KindBuilder withoutPayloadDefault = withConflict(withField.reason("r"));

      assertThat(unknownReason.problems())
          .containsExactly("conflict ok.no: decision ok has no reason no");
      assertThat(withoutPayloadDefault.problems())
          .containsExactly(
              "conflict d.r: payload field n has no default (give it one with field(name, type,"
                  + " default))");
    }
  }

  @Nested
  class ReasonRankings {

    @Test
    void aRankingOfNoReasons() {
      assertThat(collecting(A).rankOutcomes().problems())
          .containsExactly("a reason ranking names no reasons");
    }

    @Test
    void aRankingOfAnUnknownDecision() {
      assertThat(collecting(A).rankReasons(B).problems())
          .containsExactly("reason ranking: decision b isn't one of the kind's");
    }

    @Test
    void aRankingThatMixesDecisions() {
      KindBuilder kind =
          collecting(A, B).rankOutcomes(A.reason("x"), B.reason("z"), A.reason("y"));

      assertThat(kind.problems())
          .containsExactly(
              "reason ranking a: reason z belongs to decision b (rank each decision's reasons in a"
                  + " ranking of its own)");
    }

    @Test
    void aDecisionRankedTwice() {
      assertThat(collecting(A).rankReasons(A).rankReasons(A).problems())
          .containsExactly("reasons of a are ranked twice");
    }

    @Test
    void aRankingThatLeavesAReasonOut() {
      assertThat(collecting(A).rankOutcomes(A.reason("y")).problems())
          .containsExactly(
              "the reason ranking of a must name every reason of a once (a declares: x, y)");
    }

    @Test
    void aRankingThatNamesAReasonTwiceOrAnUnknownOne() {
      KindBuilder twice = collecting(A).rankOutcomes(A.reason("x"), A.reason("y"), A.reason("x"));
      KindBuilder unknown =
          collecting(A).rankOutcomes(A.reason("x"), A.reason("y"), new Outcome("a", "w"));

      String problem =
          "the reason ranking of a must name every reason of a once (a declares: x, y)";
      assertThat(twice.problems()).containsExactly(problem);
      assertThat(unknown.problems()).containsExactly(problem);
    }
  }

  @Nested
  class ExclusiveSets {

    @Test
    void aSetOfFewerThanTwo() {
      assertThat(collecting(A, B).exclusive(A).problems())
          .containsExactly("an exclusive set names at least two outcomes");
    }

    @Test
    void anOutcomeOfAnUnknownDecision() {
      assertThat(collecting(A).exclusive(A, B.reason("z")).problems())
          .containsExactly("exclusive b.z: decision b isn't one of the kind's");
    }

    @Test
    void anOutcomeWithAnUnknownReason() {
      assertThat(collecting(A, B).exclusive(B, new Outcome("a", "w")).problems())
          .containsExactly("exclusive a.w: decision a has no reason w");
    }

    @Test
    void anUnknownDecision() {
      assertThat(collecting(A).exclusive(A.reason("x"), B).problems())
          .containsExactly("exclusive: decision b isn't one of the kind's");
    }
  }

  @Nested
  class Types {

    @Test
    void aFunctionNameThatIsNotAnIdentifier() {
      KindBuilder kind = sound().function("look-up", new FnDecl(List.of(), Type.STRING));

      assertThat(kind.problems()).containsExactly("function name \"look-up\" isn't an identifier");
    }

    @Test
    void anOptionalFunctionResult() {
      KindBuilder kind =
          sound().function("find", new FnDecl(List.of(Type.STRING), Type.optional(Type.STRING)));

      assertThat(kind.problems())
          .containsExactly(
              "function find: the result can't be optional (return the zero value and let the"
                  + " policy compare, or return a list)");
    }

    @Test
    void twoDifferentTypesWithOneName() {
      KindBuilder kind =
          sound()
              .input("a", Type.enumeration("Tier", "gold"))
              .input("b", Type.list(Type.structure("Tier").field("x", Type.INT)));

      assertThat(kind.problems())
          .containsExactly(
              "two different types are both named Tier (rename one; each enum and struct needs a"
                  + " name of its own)");
    }

    @Test
    void theSameTypeTwiceIsOneType() {
      Type.Enumeration tier = Type.enumeration("Tier", "gold");
      KindBuilder kind =
          sound().input("a", tier).input("b", Type.map(tier, Type.INT)).enumeration(tier);

      assertThat(kind.problems()).isEmpty();
      assertThat(kind.build().schema()).containsOnlyOnce("enum Tier: gold\n");
    }

    @Test
    void anEnumWithoutValues() {
      assertThat(sound().enumeration(Type.enumeration("Empty")).problems())
          .containsExactly("enum Empty declares no values");
    }

    @Test
    void anEnumValueDeclaredTwice() {
      assertThat(sound().enumeration(Type.enumeration("Tier", "gold", "gold")).problems())
          .containsExactly("enum Tier declares a value twice");
    }

    @Test
    void aStructFieldDeclaredTwice() {
      Type.Structure twice = Type.structure("S").field("f", Type.INT).field("f", Type.INT);

      assertThat(sound().input("s", twice).problems())
          .containsExactly("struct S: field f is declared twice");
    }
  }

  @Nested
  class PayloadDefaults {

    @Test
    void aDefaultThatIsNotAConstantOfTheFieldsType() {
      Decision d = OK.field("n", Type.INT, "seven");

      assertThat(collecting(d).problems())
          .containsExactly("decision ok: field n: \"seven\" isn't a constant of type int");
    }

    @Test
    void noneAsTheDefaultOfAnOptionalField() {
      Decision d = OK.field("n", Type.optional(Type.INT), NullNode.getInstance());

      assertThat(collecting(d).problems())
          .containsExactly(
              "decision ok: field n: `none` isn't a constant: leave the default out; a field"
                  + " without one is required");
    }
  }
}
