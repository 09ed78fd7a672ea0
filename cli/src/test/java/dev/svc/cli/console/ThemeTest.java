package dev.svc.cli.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.server.config.ConfigKey;
import org.junit.jupiter.api.Test;

/**
 * The themes of access-server spec §11.9 are written twice by necessity: the config key's accepted
 * words (the server module, which loads every key) and the palettes here (the command line, which
 * the server doesn't see). They must name the same themes, in the same order.
 */
class ThemeTest {

  @Test
  void the_palettes_are_exactly_the_words_output_theme_accepts() {
    assertThat(Theme.names()).isEqualTo(ConfigKey.OUTPUT_THEME.choices());
  }

  @Test
  void the_default_theme_has_a_palette() {
    assertThat(Theme.byName(ConfigKey.OUTPUT_THEME.defaultText())).isPresent();
  }
}
