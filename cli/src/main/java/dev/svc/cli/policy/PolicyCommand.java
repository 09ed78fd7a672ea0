package dev.svc.cli.policy;

import dev.svc.cli.console.Terminal;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * {@code svc policy}: the policy author's local tool on the embedded engine, no server needed. Its
 * commands print the reference command line's records and text (tooling spec), exit 0 on success
 * and 1 on any failure, and report a command that can't run as an {@code Error:} block on stderr.
 */
@Command(
    name = "policy",
    mixinStandardHelpOptions = true,
    description = "Check, format, evaluate, test and explain .sigil policies on the embedded engine.",
    subcommands = {
      CheckCommand.class,
      FormatCommand.class,
      EvalCommand.class,
      TestCommand.class,
      ExplainCommand.class,
      PolicyVersionCommand.class
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:success (warnings don't count)", "1:any failure: a bad flag, an unreadable file, an error found"})
public final class PolicyCommand implements Callable<Integer> {

  /** The exit status of every failure (tooling spec §1.1). */
  static final int FAILED = 1;

  /** Output formats of {@code -o}. */
  enum Format {
    text,
    json,
    yaml
  }

  /** When to colour text output. */
  enum ColorMode {
    auto,
    always,
    never
  }

  private final Workspace workspace;

  @Spec CommandSpec spec;

  @Option(names = {"-o", "--output"}, scope = ScopeType.INHERIT, paramLabel = "<format>",
      description = "Output format: text, json or yaml (default: text).", converter = FormatConverter.class)
  Format output = Format.text;

  @Option(names = "--color", scope = ScopeType.INHERIT, paramLabel = "<when>",
      description = "Colour text output: auto (on a terminal, without NO_COLOR), always or never (default: auto).",
      converter = ColorConverter.class)
  ColorMode color = ColorMode.auto;

  /** Reads the process's working directory, stdin and environment. */
  public PolicyCommand() {
    this(Workspace.ofProcess());
  }

  /** Reads the surroundings {@code workspace} gives, for tests. */
  PolicyCommand(Workspace workspace) {
    this.workspace = workspace;
  }

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(),
        "svc policy needs a command: check, fmt, eval, test, explain or version");
  }

  /** The streams, theme and surroundings of one run of {@code command}. */
  Console console(CommandSpec command) {
    boolean colored = switch (color) {
      case always -> true;
      case never -> false;
      case auto -> Terminal.of(workspace.terminal(), workspace.environment()).colourAllowed();
    };
    return new Console(command.commandLine().getOut(), command.commandLine().getErr(), new PolicyColors(colored), output,
        workspace);
  }

  /**
   * Makes {@code root} report bad flags and arguments of the policy commands as their {@code Error:}
   * block with exit status 1, leaving other commands' usage errors to the handler it had.
   *
   * @param root the {@code svc} command line holding the {@code policy} command
   * @return {@code root}
   */
  public static CommandLine install(CommandLine root) {
    IParameterExceptionHandler others = root.getParameterExceptionHandler();
    root.setParameterExceptionHandler((e, args) ->
        isPolicy(e.getCommandLine()) ? usageError(e) : others.handleParseException(e, args));
    return root;
  }

  /** The policy command's own command line, for tests that run it alone. */
  static CommandLine commandLine(Workspace workspace) {
    CommandLine policy = new CommandLine(new PolicyCommand(workspace));
    policy.setParameterExceptionHandler((e, args) -> usageError(e));
    return policy;
  }

  private static boolean isPolicy(CommandLine command) {
    for (CommandLine at = command; at != null; at = at.getParent()) {
      if (at.getCommand() instanceof PolicyCommand) {
        return true;
      }
    }
    return false;
  }

  private static int usageError(ParameterException e) {
    CommandLine command = e.getCommandLine();
    List<String> advice = new ArrayList<>();
    if (e instanceof UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()) {
      advice.add("did you mean " + String.join(" or ", unmatched.getSuggestions()) + "?");
    }
    advice.add("run " + command.getCommandSpec().qualifiedName() + " --help to see its usage");
    PrintWriter err = command.getErr();
    err.print(ErrorBlock.render(new PolicyException(e.getMessage(), advice, List.of(), List.of()), new PolicyColors(false)));
    err.flush();
    return FAILED;
  }

  /** Reads one of an enum's names, refusing others in the reference's words and listing the choices. */
  abstract static class Choice<E extends Enum<E>> implements CommandLine.ITypeConverter<E> {

    private final Class<E> type;
    private final String what;

    Choice(Class<E> type, String what) {
      this.type = type;
      this.what = what;
    }

    @Override
    public E convert(String value) {
      List<String> names = new ArrayList<>();
      for (E choice : type.getEnumConstants()) {
        if (choice.name().equals(value)) {
          return choice;
        }
        names.add(choice.name());
      }
      throw new CommandLine.TypeConversionException(
          "unsupported " + what + " \"" + value + "\"; use one of: " + String.join(", ", names));
    }
  }

  /** Reads {@code -o}. */
  static final class FormatConverter extends Choice<Format> {
    FormatConverter() {
      super(Format.class, "output type");
    }
  }

  /** Reads {@code --color}. */
  static final class ColorConverter extends Choice<ColorMode> {
    ColorConverter() {
      super(ColorMode.class, "color mode");
    }
  }
}
