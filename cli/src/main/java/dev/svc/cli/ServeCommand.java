package dev.svc.cli;

import dev.svc.server.StartException;
import dev.svc.server.SvcServer;
import dev.svc.server.config.ConfigException;
import dev.svc.server.config.ConfigKey;
import dev.svc.server.config.ConfigLoader;
import dev.svc.server.config.ConfigProblem;
import dev.svc.server.config.ConfigSources;
import dev.svc.server.config.SvcConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.logging.ConsoleHandler;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code svc serve}: runs the access server until SIGTERM or SIGINT, then stops it gracefully and
 * exits 0. Every flag sets one configuration key and wins over the environment and the config file;
 * the values are read and checked with the rest of the configuration, so a wrong one is reported
 * like any other, naming the flag.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = "Run the svc access server: the policy engine API on the mesh, health and metrics.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:stopped by SIGTERM or SIGINT",
      "1:the server couldn't start",
      "2:the flags or the configuration are wrong"
    })
final class ServeCommand implements Callable<Integer> {

  // The option that sets each key; options are read as text, so the loader checks them like the rest.
  private static final Map<String, ConfigKey> KEYS = Map.ofEntries(
      Map.entry("--debug", ConfigKey.DEBUG),
      Map.entry("--server", ConfigKey.MESH_HOSTNAME),
      Map.entry("--port", ConfigKey.MESH_PORT),
      Map.entry("--dir", ConfigKey.MESH_STATE_DIR),
      Map.entry("--cap-name", ConfigKey.MESH_CAP_NAME),
      Map.entry("--mesh-mode", ConfigKey.MESH_MODE),
      Map.entry("--kubernetes-mode", ConfigKey.KUBERNETES_MODE),
      Map.entry("--health-port", ConfigKey.HEALTH_PORT),
      Map.entry("--api-endpoint", ConfigKey.CLUSTER_INFO_API_ENDPOINT),
      Map.entry("--ca-data", ConfigKey.CLUSTER_INFO_CA_DATA),
      Map.entry("--insecure-skip-tls-verify", ConfigKey.CLUSTER_INFO_INSECURE_SKIP_TLS_VERIFY),
      Map.entry("--labels", ConfigKey.CLUSTER_INFO_LABELS),
      Map.entry("--engine-pool-size", ConfigKey.ENGINE_POOL_SIZE),
      Map.entry("--eval-timeout", ConfigKey.ENGINE_EVAL_TIMEOUT),
      Map.entry("--acquire-timeout", ConfigKey.ENGINE_ACQUIRE_TIMEOUT),
      Map.entry("--policies-dir", ConfigKey.POLICIES_DIR),
      Map.entry("--install", ConfigKey.POLICIES_INSTALL),
      Map.entry("--policies-reload", ConfigKey.POLICIES_RELOAD));

  @Spec CommandSpec spec;

  @Option(names = {"-c", "--config"}, paramLabel = "<file>",
      description = "Read this config file instead of searching ., $HOME/.config/svc/ and /etc/svc/ for config.yaml.")
  Path configFile;

  @Option(names = "--debug", arity = "0..1", fallbackValue = "true", paramLabel = "<bool>",
      description = "Debug logging (debug).")
  String debug;

  @Option(names = {"-s", "--server"}, paramLabel = "<hostname>", description = "Node name on the mesh (mesh.hostname).")
  String hostname;

  @Option(names = {"-p", "--port"}, paramLabel = "<port>",
      description = "API port; 443 means HTTPS, 0 any free port (mesh.port).")
  String port;

  @Option(names = {"-d", "--dir"}, paramLabel = "<dir>", description = "Mesh node state directory (mesh.stateDir).")
  String stateDir;

  @Option(names = {"-n", "--cap-name"}, paramLabel = "<name>",
      description = "Capability name whose grants admit callers (mesh.capName).")
  String capName;

  @Option(names = "--mesh-mode", paramLabel = "<mode>",
      description = "managed, external or dev: how the node joins the tailnet (mesh.mode).")
  String meshMode;

  @Option(names = "--kubernetes-mode", paramLabel = "<mode>",
      description = "cluster or embedded: where the Kubernetes API is (kubernetes.mode).")
  String kubernetesMode;

  @Option(names = "--health-port", paramLabel = "<port>", description = "Health and metrics port (health.port).")
  String healthPort;

  @Option(names = "--api-endpoint", paramLabel = "<url>",
      description = "Kubernetes API URL handed to users (clusterInfo.apiEndpoint).")
  String apiEndpoint;

  @Option(names = "--ca-data", paramLabel = "<base64>", description = "Cluster CA, base64 of PEM (clusterInfo.caData).")
  String caData;

  @Option(names = "--insecure-skip-tls-verify", arity = "0..1", fallbackValue = "true", paramLabel = "<bool>",
      description = "Tell clients to skip TLS verification (clusterInfo.insecureSkipTLSVerify).")
  String insecureSkipTlsVerify;

  @Option(names = "--labels", paramLabel = "<k=v,...>",
      description = "Labels shown to users (clusterInfo.labels).")
  String labels;

  @Option(names = "--engine-pool-size", paramLabel = "<n>",
      description = "Engine instances; 0 means one per processor (engine.poolSize).")
  String enginePoolSize;

  @Option(names = "--eval-timeout", paramLabel = "<duration>",
      description = "Timeout of an evaluation that names none; 0 means none (engine.evalTimeout).")
  String evalTimeout;

  @Option(names = "--acquire-timeout", paramLabel = "<duration>",
      description = "Wait for a free engine instance before answering 503 (engine.acquireTimeout).")
  String acquireTimeout;

  @Option(names = "--policies-dir", paramLabel = "<dir>",
      description = "Directory of .sigil files of the configured policies (policies.dir).")
  String policiesDir;

  @Option(names = "--install", paramLabel = "<name=policy,...>",
      description = "Policies to install from --policies-dir, comma-separated (policies.install).")
  String install;

  @Option(names = "--policies-reload", arity = "0..1", fallbackValue = "true", paramLabel = "<bool>",
      description = "Install changed policy files again while serving (policies.reload).")
  String policiesReload;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter err = spec.commandLine().getErr();
    SvcConfig config;
    try {
      config = ConfigLoader.load(ConfigSources.ofProcess(flags(), Optional.ofNullable(configFile)));
    } catch (ConfigException e) {
      int count = e.problems().size();
      err.println("svc serve: the configuration has " + count + (count == 1 ? " problem:" : " problems:"));
      for (ConfigProblem problem : e.problems()) {
        err.println(problem.render());
      }
      return CommandLine.ExitCode.USAGE;
    }
    configureLogging(config.debug());
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
      server.stop().toCompletionStage().toCompletableFuture().join();
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
      ConfigKey key = KEYS.get(option.longestName());
      if (key != null) {
        flags.put(key, new ConfigSources.Flag(option.longestName(), option.getValue()));
      }
    }
    return flags;
  }

  // One line per record on stderr; debug shows the FINE records of svc and its libraries too.
  private static void configureLogging(boolean debug) {
    System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tF %1$tT.%1$tL %4$s %3$s: %5$s%6$s%n");
    Logger root = Logger.getLogger("");
    for (var handler : root.getHandlers()) {
      root.removeHandler(handler);
    }
    ConsoleHandler console = new ConsoleHandler();
    Level level = debug ? Level.FINE : Level.INFO;
    console.setLevel(level);
    root.addHandler(console);
    root.setLevel(level);
  }
}
