package dev.svc.cli;

import dev.svc.server.StartException;
import dev.svc.server.SvcServer;
import dev.svc.server.config.ConfigException;
import dev.svc.server.config.ConfigKey;
import dev.svc.server.config.ConfigLoader;
import dev.svc.server.config.ConfigProblem;
import dev.svc.server.config.ConfigSources;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.telemetry.LogFormat;
import java.io.PrintWriter;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/**
 * {@code svc serve}: runs the access server until SIGTERM or SIGINT, then stops it gracefully and
 * exits 0. SIGQUIT stops it so too when the launcher runs it ({@code scripts/relay-signals} turns the
 * signal into SIGTERM): the JVM keeps SIGQUIT for thread dumps and {@code jcmd}. Every flag sets one configuration key and wins over the environment and the config file;
 * the flags are those the keys declare ({@link ConfigKey#serveOption()}), and their values are read
 * and checked with the rest of the configuration, so a wrong one is reported like any other, naming
 * the flag.
 */
@Command(
    name = "serve",
    modelTransformer = ServeCommand.KeyOptions.class,
    mixinStandardHelpOptions = true,
    description = "Run the svc access server: the policy engine API on the mesh, health and metrics.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:stopped by SIGTERM, SIGINT or (through the launcher) SIGQUIT",
      "1:the server couldn't start",
      "2:the flags or the configuration are wrong"
    })
final class ServeCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ConfigFileOption configFile;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter err = spec.commandLine().getErr();
    SvcConfig config;
    try {
      config = ConfigLoader.load(ConfigSources.ofProcess(flags(), configFile.file()));
    } catch (ConfigException e) {
      int count = e.problems().size();
      err.println("svc serve: the configuration has " + count + (count == 1 ? " problem:" : " problems:"));
      for (ConfigProblem problem : e.problems()) {
        err.println(problem.render());
      }
      // Spec §1.3 step 1 and §2.6: a malformed configuration exits 2, one a server can't start with 1.
      return e.refusedAtStart() ? CommandLine.ExitCode.SOFTWARE : CommandLine.ExitCode.USAGE;
    }
    Handler console = configureLogging(config.debug());
    SvcServer server;
    try {
      server = SvcServer.start(config).toCompletionStage().toCompletableFuture().join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof StartException start) {
        err.println("svc serve: " + start.getMessage() + "\n  help: " + start.help());
      } else {
        err.println("svc serve: the server couldn't start: " + cause);
      }
      return CommandLine.ExitCode.SOFTWARE;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      log(console, "stopping: requests in flight get up to " + SvcServer.SHUTDOWN_GRACE.toSeconds() + " s");
      server.stop().toCompletionStage().toCompletableFuture().join();
      log(console, "stopped");
      // A stop by signal is a success (access-server spec §1.4); the JVM would exit 128+signal.
      Runtime.getRuntime().halt(CommandLine.ExitCode.OK);
    }, "svc-serve-shutdown"));
    new CountDownLatch(1).await();
    return CommandLine.ExitCode.OK;
  }

  /** The keys set by the options the user passed, each with the option's name. */
  Map<ConfigKey, ConfigSources.Flag> flags() {
    Map<ConfigKey, ConfigSources.Flag> flags = new EnumMap<>(ConfigKey.class);
    for (OptionSpec option : spec.commandLine().getParseResult().matchedOptions()) {
      if (option.userObject() instanceof ConfigKey key) {
        flags.put(key, new ConfigSources.Flag(option.longestName(), option.getValue()));
      }
    }
    return flags;
  }

  /**
   * Adds an option for every key that declares one ({@link ConfigKey#serveOption()}). The options are
   * read as text, so the loader checks them like every other source; a boolean may be given without
   * a value, meaning {@code true}.
   */
  static final class KeyOptions implements CommandLine.IModelTransformer {

    @Override
    public CommandSpec transform(CommandSpec command) {
      for (ConfigKey key : ConfigKey.values()) {
        key.serveOption().ifPresent(option -> {
          OptionSpec.Builder builder = OptionSpec.builder(option.names().toArray(String[]::new))
              .paramLabel(option.paramLabel())
              .description(description(key, option))
              .type(String.class)
              .userObject(key);
          if (key.isBoolean()) {
            builder.arity("0..1").fallbackValue("true");
          }
          command.addOption(builder.build());
        });
      }
      return command;
    }

    // Such as "How the node joins the tailnet: managed, external or dev (mesh.mode)."
    private static String description(ConfigKey key, ConfigKey.ServeOption option) {
      List<String> words = key.choices();
      String choices = words.isEmpty() ? ""
          : ": " + String.join(", ", words.subList(0, words.size() - 1)) + " or " + words.get(words.size() - 1);
      return option.description() + choices + " (" + key.key() + ").";
    }
  }

  // One line per record on stderr: JSON for collectors (spec §10.2); with debug, lines for people,
  // with the FINE records of svc and its libraries too.
  private static Handler configureLogging(boolean debug) {
    Logger root = Logger.getLogger("");
    for (var handler : root.getHandlers()) {
      root.removeHandler(handler);
    }
    ConsoleHandler console = new ConsoleHandler();
    console.setFormatter(debug ? LogFormat.readable() : LogFormat.json());
    Level level = debug ? Level.FINE : Level.INFO;
    console.setLevel(level);
    root.addHandler(console);
    root.setLevel(level);
    return console;
  }

  // Straight to the handler: java.util.logging's own shutdown hook takes the handlers off the loggers
  // at the same time as this one runs, and a record logged through a logger would then be lost.
  private static void log(Handler console, String message) {
    LogRecord record = new LogRecord(Level.INFO, message);
    record.setLoggerName(ServeCommand.class.getName());
    console.publish(record);
    console.flush();
  }
}
