package dev.svc.engine.kind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.engine.EngineException;
import dev.svc.engine.EvalEntry;
import dev.svc.engine.EvalResult;
import dev.svc.engine.ResultShape;
import dev.svc.engine.internal.AbiCodec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reading eval records through a kind's handles (bindings.md §14): {@link Decision#match}, {@link
 * Decision#matchAll} and {@link Outcome#is}, on records built here; {@code KindCompileTest} reads
 * the engine's.
 */
class ReadingResultsTest {

  private static final Decision GRANT = Decision.of("grant", "owner", "oncall");
  private static final ObjectNode TTL = AbiCodec.MAPPER.createObjectNode().put("ttl", "1h30m");

  record Grant(Duration ttl) {}

  private static EvalEntry entry(String decision, String reason, Optional<JsonNode> payload) {
    return new EvalEntry(
        payload,
        decision,
        reason,
        Optional.of("grants.main"),
        Optional.of("grants.sigil:3:3"),
        List.of(),
        List.of(),
        true);
  }

  private static EvalEntry entry(String decision, String reason) {
    return entry(decision, reason, Optional.of(TTL));
  }

  private static EvalResult result(
      List<EvalEntry> outcome, boolean collect, Optional<ResultShape> shape) {
    return new EvalResult(
        Optional.empty(),
        Optional.empty(),
        "grants.main",
        Optional.empty(),
        Optional.empty(),
        outcome,
        outcome,
        collect,
        shape);
  }

  private static EvalResult single(EvalEntry only) {
    return result(List.of(only), false, Optional.empty());
  }

  @Test
  void matchReadsTheSingleOutcomeOfThisDecision() {
    EvalResult owner = single(entry("grant", "owner"));

    assertThat(GRANT.match(owner)).contains(TTL);
    assertThat(GRANT.match(owner, Grant.class)).contains(new Grant(Duration.ofMinutes(90)));
    assertThat(GRANT.reason("owner").is(owner)).isTrue();
    assertThat(GRANT.reason("oncall").is(owner)).isFalse();
  }

  @Test
  void anotherDecisionsOutcomeMatchesNothing() {
    EvalResult denied = single(entry("deny", "owner"));

    assertThat(GRANT.match(denied)).isEmpty();
    assertThat(GRANT.match(denied, Grant.class)).isEmpty();
    assertThat(GRANT.matchAll(denied)).isEmpty();
    assertThat(new Outcome("deny", "oncall").is(denied)).isFalse();
  }

  @Test
  void aDecisionWithoutPayloadMatchesAnEmptyObject() {
    record Nothing() {}
    EvalResult bare = single(entry("grant", "owner", Optional.empty()));

    assertThat(GRANT.match(bare)).contains(AbiCodec.MAPPER.createObjectNode());
    assertThat(GRANT.match(bare, Nothing.class)).contains(new Nothing());
    assertThat(GRANT.matchAll(bare))
        .extracting(Matched::payload)
        .containsExactly(AbiCodec.MAPPER.createObjectNode());
  }

  @Test
  void aRankedTopOfTwoEntriesHasNoSingleOutcome() {
    EvalResult two =
        result(
            List.of(entry("grant", "owner"), entry("grant", "oncall")),
            true,
            Optional.of(new ResultShape(true, true)));

    assertThat(GRANT.match(two)).isEmpty();
    assertThat(GRANT.reason("owner").is(two)).isFalse();
    assertThat(GRANT.matchAll(two)).extracting(Matched::reason).containsExactly("owner", "oncall");
  }

  @Test
  void matchAllListsEveryEntryOfThisDecisionInOutcomeOrder() {
    EvalEntry fallback =
        new EvalEntry(
            Optional.of(TTL),
            "grant",
            "oncall",
            Optional.empty(),
            Optional.empty(),
            List.of(),
            List.of(),
            true);
    EvalResult all =
        result(
            List.of(entry("grant", "owner"), entry("deny", "owner"), fallback),
            true,
            Optional.of(new ResultShape(true, false)));

    assertThat(GRANT.matchAll(all, Grant.class))
        .containsExactly(
            new Matched<>(
                new Grant(Duration.ofMinutes(90)),
                "owner",
                Optional.of("grants.main"),
                Optional.of("grants.sigil:3:3")),
            new Matched<>(
                new Grant(Duration.ofMinutes(90)), "oncall", Optional.empty(), Optional.empty()));
    assertThat(GRANT.matchAll(result(List.of(), true, Optional.empty()))).isEmpty();
  }

  static Stream<Arguments> shapes() {
    Optional<ResultShape> none = Optional.empty();
    return Stream.of(
        Arguments.of("no shape, collect", none, true, true),
        Arguments.of("no shape, not collect", none, false, false),
        Arguments.of("collect unranked", Optional.of(new ResultShape(true, false)), false, true),
        Arguments.of("collect ranked", Optional.of(new ResultShape(true, true)), true, false),
        Arguments.of("not collect", Optional.of(new ResultShape(false, false)), true, false));
  }

  @ParameterizedTest(name = "{0}: refused {3}")
  @MethodSource("shapes")
  void onlyAnUnrankedCollectingResultIsRefusedItsSingleOutcome(
      String name, Optional<ResultShape> shape, boolean collect, boolean refused) {
    EvalResult owner = result(List.of(entry("grant", "owner")), collect, shape);

    if (refused) {
      assertThatThrownBy(() -> GRANT.match(owner)).isInstanceOf(EngineException.class);
      assertThatThrownBy(() -> GRANT.match(owner, Grant.class)).isInstanceOf(EngineException.class);
      assertThatThrownBy(() -> GRANT.reason("owner").is(owner)).isInstanceOf(EngineException.class);
    } else {
      assertThat(GRANT.match(owner)).contains(TTL);
      assertThat(GRANT.reason("owner").is(owner)).isTrue();
    }
    assertThat(GRANT.matchAll(owner)).hasSize(1);
  }

  @Test
  void theRefusalSaysToReadTheCollectionWithMatchAll() {
    EvalResult collected = result(List.of(entry("grant", "owner")), true, Optional.empty());
    String help =
        "a collecting kind applies every decision that fired; with precedence, the top rank reads"
            + " with match";

    Refusals.assertRefused(
        () -> GRANT.match(collected),
        "match on a collecting kind's result, which has no single outcome; read it with matchAll",
        help);
    Refusals.assertRefused(
        () -> GRANT.reason("owner").is(collected),
        "is on a collecting kind's result, which has no single outcome; read it with matchAll",
        help);
  }

  @Test
  void aPayloadThatDoesntFitTheTypeSaysWhy() {
    record Wrong(int ttl) {}
    EvalResult owner = single(entry("grant", "owner"));

    assertThatThrownBy(() -> GRANT.match(owner, Wrong.class))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message())
                  .startsWith("the payload of decision grant doesn't fit the type asked for: ")
                  .contains("`int`")
                  .contains("\"1h30m\"");
              assertThat(e.help())
                  .isEqualTo(
                      "give the type the decision's fields, with the same names and types; a"
                          + " duration or timestamp is a String");
              assertThat(e.getCause()).isNotNull();
            });
    assertThatThrownBy(() -> GRANT.matchAll(owner, Wrong.class))
        .isInstanceOf(EngineException.class)
        .hasMessageStartingWith("the payload of decision grant doesn't fit the type asked for: ");
  }

  @Test
  void aTypeWithAFieldTheDecisionLacksDoesntFit() {
    record Misnamed(String tll) {}
    EvalResult owner = single(entry("grant", "owner"));

    assertThatThrownBy(() -> GRANT.match(owner, Misnamed.class))
        .isInstanceOf(EngineException.class)
        .hasMessageContaining("doesn't fit the type asked for: ")
        .hasMessageContaining("'tll'");
  }

  @Test
  void anOptionalFieldThatIsNoneDoesntFitAPrimitive() {
    record Retries(int retries) {}
    record MaybeRetries(Optional<Integer> retries) {}
    ObjectNode none = AbiCodec.MAPPER.createObjectNode().putNull("retries");
    EvalResult owner = single(entry("grant", "owner", Optional.of(none)));

    assertThat(GRANT.match(owner, MaybeRetries.class)).contains(new MaybeRetries(Optional.empty()));
    assertThatThrownBy(() -> GRANT.match(owner, Retries.class))
        .isInstanceOf(EngineException.class)
        .hasMessageContaining("doesn't fit the type asked for: ");
  }

  @Test
  void nullIsRefusedNamingTheParameter() {
    EvalResult owner = single(entry("grant", "owner"));

    assertThatThrownBy(() -> GRANT.match(null)).hasMessage("result");
    assertThatThrownBy(() -> GRANT.match(owner, null)).hasMessage("type");
    assertThatThrownBy(() -> GRANT.matchAll(null)).hasMessage("result");
    assertThatThrownBy(() -> GRANT.reason("owner").is(null)).hasMessage("result");
  }
}
