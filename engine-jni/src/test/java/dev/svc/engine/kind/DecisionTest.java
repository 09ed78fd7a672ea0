package dev.svc.engine.kind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.engine.EngineException;
import dev.svc.engine.internal.AbiCodec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link Decision} and {@link Outcome}: the handles a kind is declared with. */
class DecisionTest {

  private static final Decision NOTIFY = Decision.of("notify", "routine", "unrouted");

  @Test
  void aReasonIsAnOutcomeWrittenDecisionDotReason() {
    Outcome unrouted = NOTIFY.reason("unrouted");

    assertThat(unrouted).isEqualTo(new Outcome("notify", "unrouted"));
    assertThat(unrouted).hasToString("notify.unrouted");
    assertThat(NOTIFY).hasToString("notify");
  }

  @Test
  void anUndeclaredReasonSuggestsTheNearestAndListsThemAll() {
    assertThatThrownBy(() -> NOTIFY.reason("unroutd"))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo("decision notify has no reason \"unroutd\"");
              assertThat(e.help())
                  .isEqualTo("did you mean \"unrouted\"? notify declares: routine, unrouted");
            });
    assertThatThrownBy(() -> NOTIFY.reason("zzzzzz"))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> assertThat(e.help()).isEqualTo("notify declares: routine, unrouted"));
  }

  @ParameterizedTest(name = "\"{0}\" of ({1})")
  @CsvSource(
      delimiter = '|',
      value = {
        "unroutd | routine unrouted | did you mean \"unrouted\"? d declares: routine, unrouted",
        "zzzzzz  | routine unrouted | d declares: routine, unrouted",
        "a       | b                | did you mean \"b\"? d declares: b",
        "Unrouted| unrouted         | did you mean \"unrouted\"? d declares: unrouted",
        "ä       | a                | did you mean \"a\"? d declares: a",
        "cat     | bat hat          | did you mean \"bat\"? d declares: bat, hat",
        "''      | ''               | 'd declares: '",
      })
  void theHelpSuggestsAReasonOnlyWhenOneIsClose(String name, String declared, String help) {
    Decision d = Decision.of("d", declared.isEmpty() ? new String[0] : declared.split(" "));

    assertThatThrownBy(() -> d.reason(name))
        .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.help()).isEqualTo(help));
  }

  @Test
  void tryReasonIsEmptyForAnUndeclaredReason() {
    assertThat(NOTIFY.tryReason("routine")).contains(new Outcome("notify", "routine"));
    assertThat(NOTIFY.tryReason("unroutd")).isEmpty();
    assertThatThrownBy(() -> NOTIFY.tryReason(null)).hasMessage("reason");
  }

  @Test
  void fieldsAddToACopyInOrder() {
    Decision withFields = NOTIFY.field("channel", Type.STRING, "#alerts").field("to", Type.STRING);

    assertThat(NOTIFY.fields()).isEmpty();
    assertThat(withFields.fields())
        .extracting(Decision.PayloadField::name)
        .containsExactly("channel", "to");
    assertThat(withFields.fields().get(1).defaultValue()).isEmpty();
  }

  @Test
  void aDefaultIsTheJsonJacksonMakesOfIt() {
    Decision d =
        Decision.of("d", "r")
            .field("n", Type.INT, 3)
            .field("m", Type.map(Type.STRING, Type.INT), Map.of("a", 1))
            .field("o", Type.optional(Type.INT), Optional.empty());

    assertThat(d.fields())
        .extracting(f -> f.defaultValue().orElseThrow().toString())
        .containsExactly("3", "{\"a\":1}", "null");
  }

  @Test
  void aDefaultCantBeChangedAfterTheFact() {
    ObjectNode labels = AbiCodec.MAPPER.createObjectNode().put("a", 1);
    Decision d = Decision.of("d", "r").field("labels", Type.map(Type.STRING, Type.INT), labels);

    labels.put("b", 2);
    ((ObjectNode) d.fields().get(0).defaultValue().orElseThrow()).put("c", 3);

    assertThat(d.fields().get(0).defaultValue())
        .contains(AbiCodec.MAPPER.createObjectNode().put("a", 1));
  }

  @Test
  void decisionsWithTheSameDeclarationsAreEqual() {
    assertThat(Decision.of("d", "r").field("n", Type.INT, 1))
        .isEqualTo(
            new Decision(
                "d",
                List.of("r"),
                List.of(
                    new Decision.PayloadField("n", Type.INT, Optional.of(IntNode.valueOf(1))))));
  }

  @Test
  void aDefaultJacksonCantWriteIsRefusedAtOnce() {
    assertThatThrownBy(() -> NOTIFY.field("x", Type.STRING, new Object()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("the default of field x can't be written as JSON: ");
  }

  @Test
  void nullIsRefusedNamingTheParameter() {
    assertThatThrownBy(() -> NOTIFY.reason(null)).hasMessage("reason");
    assertThatThrownBy(() -> NOTIFY.field("x", Type.INT, null)).hasMessage("defaultValue");
    assertThatThrownBy(() -> NOTIFY.field("x", null)).hasMessage("type");
    assertThatThrownBy(() -> new Outcome("d", null)).hasMessage("reason");
  }
}
