package dev.svc.cli.console;

import java.util.Map;

/**
 * What the output goes to, decided once per process (gh's {@code IOStreams}): whether stdout is a
 * terminal, and whether colour is allowed.
 *
 * @param stdoutTty whether stdout is an interactive terminal
 * @param dumb whether {@code TERM} is {@code dumb}
 * @param noColor whether {@code NO_COLOR} is set, to any value
 */
public record Terminal(boolean stdoutTty, boolean dumb, boolean noColor) {

  /**
   * The terminal a process has, from its environment.
   *
   * @param stdoutTty whether stdout is an interactive terminal
   * @param environment the environment variables
   * @return the terminal
   */
  public static Terminal of(boolean stdoutTty, Map<String, String> environment) {
    return new Terminal(stdoutTty, "dumb".equals(environment.get("TERM")), environment.containsKey("NO_COLOR"));
  }

  /**
   * The one rule for colour on a terminal, shared by {@code svc policy --color auto} (tooling spec
   * §1) and the user commands' themes (access-server spec §11.9): stdout is a terminal and
   * {@code NO_COLOR} is unset.
   *
   * @return true when colour is allowed
   */
  public boolean colourAllowed() {
    return stdoutTty && !noColor;
  }

  /**
   * The theme actually used: {@link Theme#NOTTY} when stdout isn't a terminal or {@code TERM=dumb}
   * (§11.9), except that {@link Theme#MARKDOWN} and {@link Theme#ASCII} stay.
   *
   * @param chosen the configured theme
   * @return the effective theme
   */
  public Theme effective(Theme chosen) {
    if ((!stdoutTty || dumb) && chosen.coloured()) {
      return Theme.NOTTY;
    }
    return chosen;
  }

  /**
   * Whether to colour with {@code theme}.
   *
   * @param theme the effective theme
   * @return true when the theme has colours and {@link #colourAllowed()}
   */
  public boolean colour(Theme theme) {
    return theme.coloured() && colourAllowed();
  }
}
