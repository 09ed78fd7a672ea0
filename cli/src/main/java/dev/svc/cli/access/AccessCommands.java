package dev.svc.cli.access;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.IFactory;
import picocli.CommandLine.IHelpSectionRenderer;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The user commands of {@code svc} (access-server spec §11.3), for the root command to register, the
 * factory that gives each its {@link ClientRuntime}, and their markdown help.
 */
public final class AccessCommands {

  private AccessCommands() {}

  /** The help section that replaces picocli's sections with the markdown help. */
  private static final String MARKDOWN_SECTION = "markdown";

  /** The top-level user commands, in the order help lists them. */
  private static final List<Class<?>> COMMANDS = List.of(
      LoginCommand.class, ShellCommand.class, KubeconfigCommand.class, ReauthenticateCommand.class,
      SignoutCommand.class, ClusterInfoCommand.class, ConfigCommand.class, GetCommand.class, SetCommand.class,
      GenerateCommand.class, CompletionCommand.class);

  /**
   * Renders the help of the user commands under {@code root}, and of their subcommands, from
   * markdown (§11.9).
   *
   * @param root the {@code svc} command line, built with {@link #factory}, with some or all of the
   *     {@link #commands()} added
   * @param runtime the process's environment and terminal, for the help's theme
   */
  public static void markdownHelp(CommandLine root, ClientRuntime runtime) {
    root.getSubcommands().values().stream().distinct()
        .filter(command -> COMMANDS.contains(command.getCommand().getClass()))
        .forEach(command -> useMarkdownHelp(command, runtime));
  }

  private static void useMarkdownHelp(CommandLine command, ClientRuntime runtime) {
    UsageMessageSpec usage = command.getCommandSpec().usageMessage();
    usage.sectionKeys(List.of(MARKDOWN_SECTION));
    Map<String, IHelpSectionRenderer> sections = new HashMap<>(usage.sectionMap());
    sections.put(MARKDOWN_SECTION, help -> HelpView.render(help.commandSpec(), runtime));
    usage.sectionMap(sections);
    command.getSubcommands().values().stream().distinct().forEach(child -> useMarkdownHelp(child, runtime));
  }

  /**
   * The top-level user commands, in the order help lists them.
   *
   * @return the command classes
   */
  public static List<Class<?>> commands() {
    return COMMANDS;
  }

  /**
   * A factory that builds the user commands with {@code runtime} and every other class as picocli
   * does.
   *
   * @param runtime the process's environment, clock and terminal
   * @return the factory
   */
  public static IFactory factory(ClientRuntime runtime) {
    IFactory fallback = CommandLine.defaultFactory();
    return new IFactory() {
      @Override
      public <K> K create(Class<K> cls) throws Exception {
        Constructor<K> constructor;
        try {
          constructor = cls.getDeclaredConstructor(ClientRuntime.class);
        } catch (NoSuchMethodException e) {
          return fallback.create(cls);
        }
        constructor.setAccessible(true);
        try {
          return constructor.newInstance(runtime);
        } catch (InvocationTargetException e) {
          throw e.getCause() instanceof Exception cause ? cause : e;
        }
      }
    };
  }
}
