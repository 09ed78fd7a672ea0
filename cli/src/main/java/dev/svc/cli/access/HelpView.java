package dev.svc.cli.access;

import dev.svc.cli.console.Terminal;
import dev.svc.cli.console.Theme;
import dev.svc.server.config.ConfigKey;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * Chooses the form and theme of a command's help (access-server spec §11.9): the long form unless
 * {@code --long=false} or {@code SVC_OUTPUT_LONG=false} says otherwise (O3: long by default), the
 * theme of {@code --theme} or {@code SVC_OUTPUT_THEME}, and no colour off a terminal.
 */
final class HelpView {

  private HelpView() {}

  static String render(CommandSpec command, ClientRuntime runtime) {
    boolean longForm = Boolean.parseBoolean(setting(command, "--long", ConfigKey.OUTPUT_LONG, runtime).orElse("true"));
    Theme chosen = setting(command, "--theme", ConfigKey.OUTPUT_THEME, runtime).flatMap(Theme::byName)
        .orElse(Theme.TOKYO_NIGHT);
    Terminal terminal = Terminal.of(runtime.stdoutTty(), runtime.environment());
    Theme theme = terminal.effective(chosen);
    String markdown = longForm ? MarkdownHelp.render(command) : MarkdownHelp.renderShort(command);
    return TerminalMarkdown.render(markdown, theme, terminal.colour(theme)).stripTrailing() + "\n";
  }

  /** A help setting from the flag on the command line, else the environment. */
  private static Optional<String> setting(CommandSpec command, String option, ConfigKey key, ClientRuntime runtime) {
    ParseResult parsed = command.commandLine().getParseResult();
    if (parsed != null && command.findOption(option) != null) {
      OptionSpec matched = parsed.matchedOption(option);
      if (matched != null) {
        Object value = matched.getValue();
        return Optional.of(String.valueOf(value));
      }
    }
    return Optional.ofNullable(runtime.environment().get(key.environmentVariable())).filter(v -> !v.isEmpty());
  }
}
