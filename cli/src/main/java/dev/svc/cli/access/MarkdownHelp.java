package dev.svc.cli.access;

import dev.svc.cli.ConfigFileOption;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A command's long help as markdown (access-server spec §11.9): {@code # Usage}, {@code ## Aliases},
 * {@code ## Description}, {@code ## Examples}, {@code ## Available Commands}, {@code ## Flags} and
 * {@code ## Global Flags}. Description and examples come from the command's template
 * {@code help/<command path>.md} when it has one, else from its one-line description; the rest from
 * picocli's model of the command.
 */
final class MarkdownHelp {

  private MarkdownHelp() {}

  /**
   * The short form of {@code --help} (§11.9): the usage, the one-line description and one table of
   * every flag.
   */
  static String renderShort(CommandSpec command) {
    StringBuilder md = new StringBuilder();
    usage(md, command);
    md.append("\n").append(String.join(" ", command.usageMessage().description())).append('\n');
    table(md, "Flags", command.options().stream().filter(o -> !o.hidden()).toList());
    return md.toString();
  }

  /** The long form: every section. */
  static String render(CommandSpec command) {
    StringBuilder md = new StringBuilder();
    usage(md, command);
    if (command.aliases().length > 0) {
      md.append("\n## Aliases\n\n").append(command.name());
      for (String alias : command.aliases()) {
        md.append(", ").append(alias);
      }
      md.append('\n');
    }
    String template = template(command);
    if (template.isEmpty()) {
      md.append("\n## Description\n\n").append(String.join(" ", command.usageMessage().description())).append('\n');
    } else {
      md.append('\n').append(template.strip()).append('\n');
    }
    List<CommandSpec> children = command.subcommands().values().stream().map(CommandLine::getCommandSpec).distinct()
        .filter(c -> !c.usageMessage().hidden() && !c.name().equals("help")).toList();
    if (!children.isEmpty()) {
      md.append("\n## Available Commands\n\n| Command | Description |\n| --- | --- |\n");
      for (CommandSpec child : children) {
        md.append("| `").append(child.name()).append("` | ")
            .append(String.join(" ", child.usageMessage().description())).append(" |\n");
      }
      md.append("\n> [!TIP]\n> Run `").append(command.qualifiedName()).append(" <command> --help` for a command's help.\n");
    }
    List<OptionSpec> global = new ArrayList<>();
    List<OptionSpec> local = new ArrayList<>();
    for (OptionSpec option : command.options()) {
      if (option.hidden()) {
        continue;
      }
      (isGlobal(option) ? global : local).add(option);
    }
    table(md, "Flags", local);
    table(md, "Global Flags", global);
    return md.toString();
  }

  private static void usage(StringBuilder md, CommandSpec command) {
    boolean group = !command.subcommands().isEmpty();
    md.append("# Usage\n\n```text\n").append(command.qualifiedName())
        .append(group ? " [command]" : usageTail(command)).append("\n```\n");
  }

  private static String usageTail(CommandSpec command) {
    StringBuilder tail = new StringBuilder(" [flags]");
    command.positionalParameters().forEach(p -> tail.append(' ').append(p.paramLabel()));
    return tail.toString();
  }

  private static boolean isGlobal(OptionSpec option) {
    return option.userObject() instanceof Field field
        && (field.getDeclaringClass() == ClientOptions.class || field.getDeclaringClass() == ConfigFileOption.class);
  }

  private static void table(StringBuilder md, String heading, List<OptionSpec> options) {
    if (options.isEmpty()) {
      return;
    }
    md.append("\n## ").append(heading).append("\n\n| Flag | Type | Usage |\n| --- | --- | --- |\n");
    for (OptionSpec option : options) {
      String[] names = option.names();
      String flag = names.length > 1 ? names[0] + ", " + names[names.length - 1] : "    " + names[0];
      String type = option.arity().max() == 0 || option.type() == Boolean.class || option.type() == boolean.class
          ? "bool" : option.type().isEnum() ? "string" : option.type().getSimpleName().toLowerCase(Locale.ROOT);
      md.append("| `").append(flag).append("` | ").append(type).append(" | ")
          .append(String.join(" ", option.description()).replace("|", "\\|")).append(" |\n");
    }
  }

  static String template(CommandSpec command) {
    String path = "help/" + command.qualifiedName(" ").replace(' ', '-') + ".md";
    try (InputStream in = MarkdownHelp.class.getResourceAsStream(path)) {
      return in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("the help templates are part of svc's jar", e);
    }
  }
}
