package dev.svc.cli.access;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A fish completion script for the command tree (open point O8; picocli generates bash only): a
 * helper that tells which command the words typed so far name, then one {@code complete} line per
 * subcommand (and alias) and per option of each command. An alias's own subcommands and options
 * aren't completed: completion follows the commands' names.
 */
final class FishCompletion {

  private static final String HELPER = """
      # svc completion for fish: svc completion fish | source
      complete -c svc -f
      function __fish_svc_at --description 'whether the svc command words typed so far are $argv'
          set -l words (commandline -opc)
          set -e words[1]
          set -l commands
          for word in $words
              string match -q -- '-*' $word; and continue
              set -a commands $word
          end
          test "$commands" = "$argv"
      end
      """;

  private FishCompletion() {}

  static String script(CommandSpec root) {
    List<String> lines = new ArrayList<>();
    describe(root, "", lines);
    return HELPER + String.join("\n", lines) + "\n";
  }

  private static void describe(CommandSpec command, String path, List<String> lines) {
    String condition = quote(("__fish_svc_at " + path).strip());
    List<CommandSpec> children = command.subcommands().values().stream().map(CommandLine::getCommandSpec).distinct()
        .filter(c -> !c.usageMessage().hidden()).toList();
    for (CommandSpec child : children) {
      List<String> names = new ArrayList<>(List.of(child.name()));
      names.addAll(List.of(child.aliases()));
      for (String name : names) {
        lines.add("complete -c svc -n " + condition + " -a " + quote(name) + " -d "
            + quote(String.join(" ", child.usageMessage().description())));
      }
    }
    if (!path.isEmpty()) {
      command.options().stream().filter(o -> !o.hidden()).forEach(option -> lines.add(option(condition, option)));
    }
    for (CommandSpec child : children) {
      describe(child, (path + " " + child.name()).strip(), lines);
    }
  }

  private static String option(String condition, OptionSpec option) {
    StringBuilder line = new StringBuilder("complete -c svc -n ").append(condition);
    for (String name : option.names()) {
      line.append(name.startsWith("--") ? " -l " + name.substring(2) : " -s " + name.substring(1));
    }
    boolean takesValue = option.arity().min() > 0;
    if (takesValue) {
      line.append(" -r");
      if (option.completionCandidates() != null) {
        List<String> candidates = new ArrayList<>();
        option.completionCandidates().forEach(candidates::add);
        line.append(" -a ").append(quote(String.join(" ", candidates)));
      } else if (option.type() == Path.class) {
        line.append(" -F");
      }
    }
    return line.append(" -d ").append(quote(String.join(" ", option.description()))).toString();
  }

  private static String quote(String text) {
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
