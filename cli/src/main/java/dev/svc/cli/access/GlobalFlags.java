package dev.svc.cli.access;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The global flags of access-server spec §11.2 ({@code --server}, {@code --debug}, ...) before the
 * command, as in {@code svc -s svc-eu --debug login}: picocli reads a command's options after its
 * name only, so they are moved to the end of the command's own arguments, where it reads them as if
 * written there. The flags and their arities come from {@link ClientOptions} itself.
 *
 * <p><b>Thread safety:</b> stateless; thread-safe.
 */
public final class GlobalFlags {

  private static final Set<String> BOOLEANS = Set.of("true", "false");

  private GlobalFlags() {}

  /**
   * {@code args} with the global flags written before the command moved after the command's own
   * arguments (before a {@code --} among them).
   *
   * @param args the command line's arguments
   * @return {@code args} itself when no global flag comes before a command
   */
  public static String[] afterCommand(String[] args) {
    if (args.length == 0 || !args[0].startsWith("-")) {
      return args; // the usual case, without reflecting over ClientOptions at every start
    }
    CommandSpec flags = CommandSpec.forAnnotatedObject(new ClientOptions());
    int i = 0;
    while (i < args.length) {
      Optional<OptionSpec> flag = flag(flags, args[i]);
      if (flag.isEmpty() || flag.get().usageHelp()) {
        break;
      }
      i += 1 + valuesTaken(flag.get(), args, i);
    }
    if (i == 0 || i >= args.length || args[i].startsWith("-")) {
      return args; // no flag first, no command after them, or an unknown option: picocli says what's wrong
    }
    List<String> moved = new ArrayList<>(Arrays.asList(args).subList(i, args.length));
    int end = moved.indexOf("--");
    moved.addAll(end < 0 ? moved.size() : end, Arrays.asList(args).subList(0, i));
    return moved.toArray(String[]::new);
  }

  private static Optional<OptionSpec> flag(CommandSpec flags, String arg) {
    String name = arg.startsWith("--") && arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
    return Optional.ofNullable(flags.findOption(name)).filter(option -> Arrays.asList(option.names()).contains(name));
  }

  // A flag that must have a value takes the next argument unless written --name=value; one whose value
  // may be left out (--debug, --quiet) takes it only when it is a boolean.
  private static int valuesTaken(OptionSpec flag, String[] args, int at) {
    if (args[at].contains("=") || flag.arity().max() == 0 || at + 1 >= args.length) {
      return 0;
    }
    return flag.arity().min() > 0 || BOOLEANS.contains(args[at + 1]) ? 1 : 0;
  }
}
