package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link LintLevel}: the levels of a check's lints, read from text as the engine reads them. */
class LintLevelTest {

  @Test
  void eachLevelIsReadByItsWireName() {
    for (LintLevel level : LintLevel.values()) {
      assertThat(LintLevel.fromWireName("unused-let", level.wireName())).isEqualTo(level);
    }
  }

  @Test
  void anUnknownLevelIsRefusedInTheEnginesWordsAndQuoting() {
    assertThatThrownBy(() -> LintLevel.fromWireName("unused-let", "Warn"))
        .isInstanceOfSatisfying(EngineException.class, e -> {
          assertThat(e.message()).isEqualTo("lints: unused-let: unknown level \"Warn\"");
          assertThat(e.help()).isEqualTo("set a lint to off, warn or error");
        });
    assertThatThrownBy(() -> LintLevel.fromWireName("unused-let", "lo\"ud"))
        .isInstanceOfSatisfying(EngineException.class,
            e -> assertThat(e.message()).isEqualTo("lints: unused-let: unknown level \"lo\\\"ud\""));
  }
}
