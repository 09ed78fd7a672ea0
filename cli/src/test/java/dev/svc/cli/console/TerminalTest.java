package dev.svc.cli.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one colour rule of the command line: {@code svc policy --color auto} (tooling spec §1) and the
 * user commands' themes (access-server spec §11.9) colour only on a terminal without {@code NO_COLOR}.
 */
class TerminalTest {

  @Test
  void colour_is_allowed_only_on_a_terminal_without_no_color() {
    assertThat(Terminal.of(true, Map.of()).colourAllowed()).isTrue();
    assertThat(Terminal.of(false, Map.of()).colourAllowed()).isFalse();
    assertThat(Terminal.of(true, Map.of("NO_COLOR", "")).colourAllowed()).isFalse();
  }

  @Test
  void a_dumb_terminal_forces_the_notty_theme_but_keeps_ascii_and_markdown() {
    Terminal dumb = Terminal.of(true, Map.of("TERM", "dumb"));

    assertThat(dumb.effective(Theme.TOKYO_NIGHT)).isEqualTo(Theme.NOTTY);
    assertThat(dumb.effective(Theme.ASCII)).isEqualTo(Theme.ASCII);
    assertThat(dumb.effective(Theme.MARKDOWN)).isEqualTo(Theme.MARKDOWN);
  }

  @Test
  void a_theme_is_coloured_when_it_has_colours_and_colour_is_allowed() {
    assertThat(Terminal.of(true, Map.of()).colour(Theme.DARK)).isTrue();
    assertThat(Terminal.of(true, Map.of()).colour(Theme.ASCII)).isFalse();
    assertThat(Terminal.of(true, Map.of("NO_COLOR", "1")).colour(Theme.DARK)).isFalse();
  }
}
