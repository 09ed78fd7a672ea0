package dev.svc.engine;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The eval record types match the record field for field (bindings §16): an {@link EvalResult}
 * written back with Jackson is the record the engine wrote, in key order and with the same members
 * omitted, for every shape a record takes; and its failures read as typed values.
 */
class EvalRecordJsonTest extends EngineFixture {

  private static final SourceFile KIND =
      SourceFile.of(
          "kind.sigil",
          """
          kind Gate version 1

          enum Zone: lobby | lab

          input actor: string
          input zone: Zone
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
            minutes: int = 5
          }

          collect one
          precedence deny > hold > open
          exclusive hold, open.maintenance

          conflict deny(reason: conflicting)
          default deny(reason: no_rule)
          """);

  private static final SourceFile OWNER =
      SourceFile.of(
          "gate/owner.sigil",
          """
          policy gate.owner: Gate@1

          param max_risk: int = 5

          when actor in owners and risk <= max_risk {
            open(reason: owner, minutes: risk)
          }
          """);

  private static final SourceFile MAIN =
      SourceFile.of(
          "gate/main.sigil",
          """
          policy gate.main: Gate@1

          use gate.owner

          assert("named_actor", actor != "")
          assert("no_visitors_in_lab", zone != lab or actor in owners)
          assert("owners_never_denied", deny not in outcome or actor not in owners)

          owner(max_risk: 7)

          when risk > 5 {
            hold(reason: frozen)
          }

          when risk > 8 and risk < 10 {
            open(reason: maintenance)
          }

          when risk > 9 {
            deny(reason: risky)
          }
          """);

  private static final ObjectMapper PLAIN = new ObjectMapper().registerModule(new Jdk8Module());

  static List<Arguments> inputs() {
    return List.of(
        Arguments.of("an invoked rule decides, with payload, chain and conditions",
            input("ana", 3, "lab")),
        Arguments.of("no rule fires: the default", input("bo", 3, "lobby")),
        Arguments.of("an exclusive set is broken: the conflict outcome",
            input("bo", 9, "lobby")),
        Arguments.of("an input assert fails", input("", 3, "lobby")),
        Arguments.of("an input assert's condition raises: cause and help",
            input("bo", 3, null)),
        Arguments.of("an outcome assert fails after rules fired",
            input("ana", 10, "lab")));
  }

  /** The input; without a zone when {@code zone} is null, which fails where the zone is read. */
  private static Map<String, Object> input(String actor, int risk, String zone) {
    Map<String, Object> input = new HashMap<>(Map.of("actor", actor, "owners", List.of("ana"), "risk", risk));
    if (zone != null) {
      input.put("zone", zone);
    }
    return input;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("inputs")
  void aResultWrittenWithJacksonIsTheRecordTheEngineWrote(String shape, Map<String, Object> input)
      throws Exception {
    try (Policy policy = gate()) {
      String engineWrote = new String(policy.evalJson(input, EvalOptions.defaults()), UTF_8);
      EvalResult result = policy.eval(input);

      // Read and written again so Go's escapes of <, > and & don't count; key order does.
      assertThat(PLAIN.writeValueAsString(result))
          .isEqualTo(PLAIN.writeValueAsString(PLAIN.readTree(engineWrote)));
    }
  }

  @Test
  void anEntryWithOnlyDecisionAndReasonRoundTripsToExactlyThat() throws Exception {
    String json = "{\"decision\":\"d\",\"reason\":\"r\"}";

    assertThat(PLAIN.writeValueAsString(PLAIN.readValue(json, EvalEntry.class))).isEqualTo(json);
  }

  @Test
  void aFailedOutcomeAssertReadsAsTypedValues() {
    try (Policy policy = gate()) {
      EvalFailure failure = policy.eval(input("ana", 10, "lab")).error().orElseThrow();

      assertThat(failure.kind()).isEqualTo(EvalFailure.Kind.ASSERTION);
      assertThat(failure.phase()).contains(EvalFailure.Phase.OUTCOME);
      assertThat(failure.asserts()).singleElement().satisfies(failed -> {
        assertThat(failed.reason()).isEqualTo("owners_never_denied");
        assertThat(failed.policy()).isEqualTo("gate.main");
        assertThat(failed.position()).isEqualTo("gate/main.sigil:7:1");
        assertThat(failed.cause()).isEmpty();
        assertThat(failed.outcome()).extracting(EvalEntry::decision, EvalEntry::reason)
            .containsExactly(Tuple.tuple("deny", "risky"));
      });
    }
  }

  @Test
  void anAssertWhoseConditionRaisesCarriesTheCauseAndItsHelp() {
    try (Policy policy = gate()) {
      EvalFailure failure = policy.eval(input("bo", 3, null)).error().orElseThrow();

      assertThat(failure.phase()).contains(EvalFailure.Phase.INPUT);
      assertThat(failure.asserts()).singleElement().satisfies(failed -> {
        assertThat(failed.reason()).isEqualTo("no_visitors_in_lab");
        assertThat(failed.cause()).hasValueSatisfying(c -> assertThat(c).startsWith("gate/main.sigil:6:"));
        assertThat(failed.help()).contains("Zone declares: lobby, lab");
        assertThat(failed.outcome()).isEmpty();
      });
    }
  }

  @Test
  void aConflictListsItsCandidates() {
    try (Policy policy = gate()) {
      EvalResult result = policy.eval(input("bo", 9, "lobby"));

      assertThat(result.error()).hasValueSatisfying(failure -> {
        assertThat(failure.kind()).isEqualTo(EvalFailure.Kind.CONFLICT);
        assertThat(failure.phase()).isEmpty();
        assertThat(failure.candidates()).extracting(EvalEntry::decision)
            .containsExactly("hold", "open");
      });
      assertThat(result.decision()).contains("deny");
      assertThat(result.reason()).contains("conflicting");
    }
  }

  private Policy gate() {
    return engine.compile(List.of(KIND, OWNER, MAIN), CompileOptions.defaults().withPolicy("gate.main"));
  }
}
