package dev.svc.engine.kind;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link Type}: how a kind file writes each type, and when two types are the same. */
class TypeTest {

  @Test
  void typesPrintAsTheKindFileWritesThem() {
    Type.Enumeration tier = Type.enumeration("Tier", "gold");
    Type.Structure team = Type.structure("Team").field("tier", tier);

    assertThat(Type.STRING).hasToString("string");
    assertThat(Type.BOOL).hasToString("bool");
    assertThat(Type.INT).hasToString("int");
    assertThat(Type.FLOAT).hasToString("float");
    assertThat(Type.DURATION).hasToString("duration");
    assertThat(Type.TIMESTAMP).hasToString("timestamp");
    assertThat(Type.list(Type.optional(team))).hasToString("list<?Team>");
    assertThat(Type.map(tier, Type.list(Type.INT))).hasToString("map<Tier, list<int>>");
    assertThat(tier).hasToString("Tier");
  }

  @Test
  void typesCompareByStructure() {
    assertThat(Type.structure("T").field("a", Type.INT))
        .isEqualTo(Type.structure("T").field("a", Type.INT))
        .isNotEqualTo(Type.structure("T").field("a", Type.FLOAT));
    assertThat(Type.enumeration("E", "a", "b")).isNotEqualTo(Type.enumeration("E", "b", "a"));
    assertThat(Type.map(Type.STRING, Type.INT)).isEqualTo(Type.map(Type.STRING, Type.INT));
  }

  @Test
  void addingAFieldLeavesTheStructAsItWas() {
    Type.Structure empty = Type.structure("T");

    empty.field("a", Type.INT);

    assertThat(empty.fields()).isEmpty();
  }
}
