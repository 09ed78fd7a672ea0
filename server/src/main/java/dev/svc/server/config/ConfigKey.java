package dev.svc.server.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every configuration key of svc (access-server spec §2.5 and §2.7), server and command line alike,
 * each declared once: its name, type, default, accepted words and the option of {@code svc serve}
 * that sets it. The environment variable, the serve options, the reading and checking of values and
 * the check of {@code conf/config.yaml} all derive from that declaration. A config file may hold any
 * key, so one {@code config.yaml} serves both {@code svc serve} and the client commands.
 *
 * <p>Adding a key takes its constant here, its field in {@link SvcConfig} read in
 * {@link ConfigLoader}, and its entry in {@code conf/config.yaml}; tests fail while one is missing.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public enum ConfigKey {
  /** Debug logging. */
  DEBUG("debug", ConfigType.BOOL, "false", new ServeOption("<bool>", "Debug logging", "--debug")),
  /** The node's name on the mesh. */
  MESH_HOSTNAME("mesh.hostname", ConfigType.STRING, "svc",
      new ServeOption("<hostname>", "Node name on the mesh", "-s", "--server")),
  /** The API port: 443 means HTTPS, anything else plain HTTP; 0 picks a free port. */
  MESH_PORT("mesh.port", ConfigType.PORT, "443",
      new ServeOption("<port>", "API port; 443 means HTTPS, 0 any free port", "-p", "--port")),
  /** The mesh node's state directory; empty means a per-user default. */
  MESH_STATE_DIR("mesh.stateDir", ConfigType.STRING, "",
      new ServeOption("<dir>", "Mesh node state directory", "-d", "--dir")),
  /** The mesh DNS suffix; the command line only. */
  MESH_TAILNET("mesh.tailnet", ConfigType.STRING, ""),
  /** The capability name whose grants admit callers. */
  MESH_CAP_NAME("mesh.capName", ConfigType.STRING, "svc.dev/cap/svc",
      new ServeOption("<name>", "Capability name whose grants admit callers", "-n", "--cap-name")),
  /** How the node joins the tailnet. */
  MESH_MODE("mesh.mode", "managed", namesOf(SvcConfig.MeshMode.values()),
      new ServeOption("<mode>", "How the node joins the tailnet", "--mesh-mode")),
  /** The daemon's local API socket; empty means the mode's default. */
  MESH_SOCKET("mesh.socket", ConfigType.STRING, ""),
  /** The daemon binary of {@code managed} mode. */
  MESH_TAILSCALED("mesh.tailscaled", ConfigType.STRING, "tailscaled"),
  /** The control server URL; empty means the daemon's default. */
  MESH_CONTROL_URL("mesh.controlUrl", ConfigType.STRING, ""),
  /** Whether the managed daemon uploads its logs. */
  MESH_LOG_UPLOAD("mesh.logUpload", ConfigType.BOOL, "true"),
  /** {@code dev} mode: every caller's login name. */
  MESH_DEV_LOGIN("mesh.dev.login", ConfigType.STRING, "dev@localhost"),
  /** {@code dev} mode: every caller's grants under {@code mesh.capName}. */
  MESH_DEV_GRANTS("mesh.dev.grants", ConfigType.GRANTS, "[{\"role\":\"view\",\"period\":\"1h\"}]"),
  /** The most time to read a whole request. */
  SERVER_READ_TIMEOUT("server.readTimeout", ConfigType.DURATION, "10s"),
  /** The most time to read a request's headers. */
  SERVER_READ_HEADER_TIMEOUT("server.readHeaderTimeout", ConfigType.DURATION, "5s"),
  /** The most time to write a response. */
  SERVER_WRITE_TIMEOUT("server.writeTimeout", ConfigType.DURATION, "20s"),
  /** The keep-alive idle timeout. */
  SERVER_IDLE_TIMEOUT("server.idleTimeout", ConfigType.DURATION, "120s"),
  /** The health and metrics port; 0 means 8080. */
  HEALTH_PORT("health.port", ConfigType.PORT, "8080",
      new ServeOption("<port>", "Health and metrics port", "--health-port")),
  /** The OTLP endpoint; empty disables export. */
  OTEL_ENDPOINT("otel.endpoint", ConfigType.STRING, ""),
  /** Plaintext OTLP transport. */
  OTEL_INSECURE("otel.insecure", ConfigType.BOOL, "true"),
  /** Where the Kubernetes API comes from: the cluster svc runs in or points at, or one embedded in svc. */
  KUBERNETES_MODE("kubernetes.mode", "cluster", namesOf(SvcConfig.KubernetesMode.values()),
      new ServeOption("<mode>", "Where the Kubernetes API comes from", "--kubernetes-mode")),
  /** The namespace of sign-in objects and ServiceAccounts. */
  OPERATOR_NAMESPACE("operator.namespace", ConfigType.STRING, "svc-dev"),
  /** The cluster entry's name in issued kubeconfigs. */
  OPERATOR_CLUSTER_NAME("operator.clusterName", ConfigType.STRING, "svc-cluster"),
  /** The context name prefix in issued kubeconfigs. */
  OPERATOR_CONTEXT_PREFIX("operator.contextPrefix", ConfigType.STRING, "svc-context-"),
  /** The user entry prefix in issued kubeconfigs. */
  OPERATOR_USER_PREFIX("operator.userPrefix", ConfigType.STRING, "svc-user-"),
  /** The ClusterRoles grants may name; empty means any. */
  OPERATOR_ALLOWED_ROLES("operator.allowedRoles", ConfigType.STRING_LIST, "[]"),
  /** The value of {@code Retry-After}; 0 or less means 1. */
  API_RETRY_AFTER_SECONDS("api.retryAfterSeconds", ConfigType.INT, "1"),
  /** How many engine instances serve the API; 0 means one per available processor. */
  ENGINE_POOL_SIZE("engine.poolSize", ConfigType.INT, "0",
      new ServeOption("<n>", "Engine instances; 0 means one per processor", "--engine-pool-size")),
  /** The timeout of an evaluation that names none; 0 means none. */
  ENGINE_EVAL_TIMEOUT("engine.evalTimeout", ConfigType.DURATION, "1s",
      new ServeOption("<duration>", "Timeout of an evaluation that names none; 0 means none", "--eval-timeout")),
  /** How long a request waits for a free engine instance before it is answered 503. */
  ENGINE_ACQUIRE_TIMEOUT("engine.acquireTimeout", ConfigType.DURATION, "1s",
      new ServeOption("<duration>", "Wait for a free engine instance before answering 503", "--acquire-timeout")),
  /** The most linear memory one engine instance of the server may grow to. */
  ENGINE_MAX_MEMORY("engine.maxMemory", ConfigType.BYTE_SIZE, "256MiB"),
  /** Where each engine instance runs: in the server's JVM, or in an engine host process of its own. */
  ENGINE_ISOLATION("engine.isolation", "in-process", List.of("in-process", "process")),
  /** The largest {@code timeout_ms} an evaluation may ask for. */
  ENGINE_MAX_EVAL_TIMEOUT("engine.maxEvalTimeout", ConfigType.DURATION, "5s"),
  /**
   * The most time an evaluation of a small body may run on the API's event loop, when an instance is
   * idle, before it moves to the pool's threads; 0 means every evaluation runs there.
   */
  ENGINE_LOOP_EVAL_BUDGET("engine.loopEvalBudget", ConfigType.DURATION, "2ms"),
  /** The directory of {@code .sigil} files the configured policies compile from; empty means none. */
  POLICIES_DIR("policies.dir", ConfigType.STRING, "",
      new ServeOption("<dir>", "Directory of .sigil files of the configured policies", "--policies-dir")),
  /** The policies to install from {@code policies.dir}: {@code name=policy}, or a policy under its own name. */
  POLICIES_INSTALL("policies.install", ConfigType.STRING_LIST, "[]",
      new ServeOption("<name=policy,...>", "Policies to install from --policies-dir, comma-separated", "--install")),
  /** Whether changed files in {@code policies.dir} are compiled and installed again while serving. */
  POLICIES_RELOAD("policies.reload", ConfigType.BOOL, "true",
      new ServeOption("<bool>", "Install changed policy files again while serving", "--policies-reload")),
  /** The command line's colour theme. */
  OUTPUT_THEME("output.theme", "tokyo-night",
      List.of("ascii", "dark", "dracula", "tokyo-night", "light", "notty", "markdown")),
  /** The command line's full help output. */
  OUTPUT_LONG("output.long", ConfigType.BOOL, "true"),
  /** The command line prints machine output only. */
  OUTPUT_QUIET("output.quiet", ConfigType.BOOL, "false"),
  /** The documentation command runs {@code markdownlint-cli2 --fix}. */
  OUTPUT_MARKDOWNLINT_FIX("output.markdownlint-fix", ConfigType.BOOL, "false"),
  /** The Kubernetes API URL handed to users. */
  CLUSTER_INFO_API_ENDPOINT("clusterInfo.apiEndpoint", ConfigType.STRING, "",
      new ServeOption("<url>", "Kubernetes API URL handed to users", "--api-endpoint")),
  /** The cluster CA, base64 of PEM. */
  CLUSTER_INFO_CA_DATA("clusterInfo.caData", ConfigType.STRING, "",
      new ServeOption("<base64>", "Cluster CA, base64 of PEM", "--ca-data")),
  /** Tell clients to skip TLS verification. */
  CLUSTER_INFO_INSECURE_SKIP_TLS_VERIFY("clusterInfo.insecureSkipTLSVerify", ConfigType.BOOL, "false",
      new ServeOption("<bool>", "Tell clients to skip TLS verification", "--insecure-skip-tls-verify")),
  /** Free-form labels shown to users. */
  CLUSTER_INFO_LABELS("clusterInfo.labels", ConfigType.STRING_MAP, "{}",
      new ServeOption("<k=v,...>", "Labels shown to users", "--labels")),
  /** Read the endpoint and CA from a ConfigMap. */
  CONFIG_MAP_ENABLED("clusterInfo.configMapRef.enabled", ConfigType.BOOL, "false"),
  /** The ConfigMap's name. */
  CONFIG_MAP_NAME("clusterInfo.configMapRef.name", ConfigType.STRING, "cluster-info"),
  /** The ConfigMap's namespace. */
  CONFIG_MAP_NAMESPACE("clusterInfo.configMapRef.namespace", ConfigType.STRING, "kube-public"),
  /** The data key holding the API URL. */
  CONFIG_MAP_KEY_API_ENDPOINT("clusterInfo.configMapRef.keys.apiEndpoint", ConfigType.STRING, "apiEndpoint"),
  /** The data key holding the base64 CA. */
  CONFIG_MAP_KEY_CA_DATA("clusterInfo.configMapRef.keys.caData", ConfigType.STRING, "caData"),
  /** The data key holding a boolean-like string. */
  CONFIG_MAP_KEY_INSECURE("clusterInfo.configMapRef.keys.insecure", ConfigType.STRING, "insecure"),
  /** The data key holding an embedded client kubeconfig. */
  CONFIG_MAP_KEY_CLIENTCONFIG("clusterInfo.configMapRef.keys.clientconfig", ConfigType.STRING, "kubeconfig");

  /** How a key's text or file value is read, and how {@code conf/config.yaml} names the type. */
  enum ConfigType {
    BOOL("bool"),
    INT("int"),
    PORT("int, 0-65535"),
    STRING("string"),
    DURATION("duration"),
    BYTE_SIZE("byte size"),
    STRING_MAP("map of string to string"),
    STRING_LIST("list of strings"),
    GRANTS("list of grant objects");

    private final String documented;

    ConfigType(String documented) {
      this.documented = documented;
    }

    /** The type as the comment above a key in {@code conf/config.yaml} names it, in parentheses. */
    String documented() {
      return documented;
    }
  }

  /**
   * The option of {@code svc serve} that sets a key (access-server spec §2.5, the flag column).
   *
   * @param paramLabel how the help names the option's value, such as {@code <port>}
   * @param description what the key does, for the help, without its words, its name or a final full
   *     stop
   * @param names the option's names, short before long, such as {@code -p} and {@code --port}
   */
  public record ServeOption(String paramLabel, String description, List<String> names) {

    /**
     * An option named {@code names}.
     *
     * @param paramLabel how the help names the value
     * @param description what the key does
     * @param names the option's names, the long one last
     */
    public ServeOption(String paramLabel, String description, String... names) {
      this(paramLabel, description, List.of(names));
    }

    /**
     * Copies the names.
     *
     * @param paramLabel how the help names the value
     * @param description what the key does
     * @param names the option's names, the long one last
     */
    public ServeOption {
      names = List.copyOf(names);
    }
  }

  private static final Map<String, ConfigKey> BY_LOWER_NAME =
      Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(k -> k.lowerName, Function.identity()));

  private final String key;
  private final String lowerName;
  private final ConfigType type;
  private final String defaultText;
  private final List<String> choices;
  private final Optional<ServeOption> serveOption;

  ConfigKey(String key, ConfigType type, String defaultText) {
    this(key, type, defaultText, List.of(), Optional.empty());
  }

  ConfigKey(String key, ConfigType type, String defaultText, ServeOption serveOption) {
    this(key, type, defaultText, List.of(), Optional.of(serveOption));
  }

  ConfigKey(String key, String defaultText, List<String> choices) {
    this(key, ConfigType.STRING, defaultText, choices, Optional.empty());
  }

  ConfigKey(String key, String defaultText, List<String> choices, ServeOption serveOption) {
    this(key, ConfigType.STRING, defaultText, choices, Optional.of(serveOption));
  }

  ConfigKey(String key, ConfigType type, String defaultText, List<String> choices, Optional<ServeOption> serveOption) {
    this.key = key;
    this.lowerName = key.toLowerCase(Locale.ROOT);
    this.type = type;
    this.defaultText = defaultText;
    this.choices = List.copyOf(choices);
    this.serveOption = serveOption;
  }

  // The words of a key whose values are an enum's constants: their names in lower case, in order.
  private static List<String> namesOf(Enum<?>... constants) {
    return Arrays.stream(constants).map(constant -> constant.name().toLowerCase(Locale.ROOT)).toList();
  }

  /**
   * The key's canonical camelCase name, such as {@code mesh.stateDir}.
   *
   * @return the dotted name
   */
  public String key() {
    return key;
  }

  /**
   * The environment variable that sets the key: {@code SVC_}, then the key upper-cased with {@code .}
   * and {@code -} as {@code _}, such as {@code SVC_MESH_STATEDIR}.
   *
   * @return the variable's name
   */
  public String environmentVariable() {
    return "SVC_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  /**
   * The key's default, as it would be written in an environment variable.
   *
   * @return the default's text
   */
  public String defaultText() {
    return defaultText;
  }

  ConfigType type() {
    return type;
  }

  /**
   * The accepted values of a key that takes one of a few words.
   *
   * @return the words, in the order the help lists them; empty for a key that takes any value
   */
  public List<String> choices() {
    return choices;
  }

  /**
   * The option of {@code svc serve} that sets the key.
   *
   * @return the option, or empty when only the environment and the config file set the key
   */
  public Optional<ServeOption> serveOption() {
    return serveOption;
  }

  /**
   * Whether the key is a boolean, so its option may be given without a value, meaning {@code true}.
   *
   * @return whether the key takes true or false
   */
  public boolean isBoolean() {
    return type == ConfigType.BOOL;
  }

  /**
   * The key named {@code name}, whatever its case (key names are case-insensitive when read).
   *
   * @param name a dotted key name
   * @return the key, or empty when svc has no such key
   */
  public static Optional<ConfigKey> byName(String name) {
    return Optional.ofNullable(BY_LOWER_NAME.get(name.toLowerCase(Locale.ROOT)));
  }

  /** Whether {@code path} is a section holding keys, such as {@code mesh} or {@code mesh.dev}. */
  static boolean isSection(String path) {
    String prefix = path.toLowerCase(Locale.ROOT) + ".";
    return BY_LOWER_NAME.keySet().stream().anyMatch(name -> name.startsWith(prefix));
  }

  /** Every key's canonical name, in declaration order: the candidates for a did-you-mean. */
  static List<String> names() {
    return Arrays.stream(values()).map(ConfigKey::key).toList();
  }

  @Override
  public String toString() {
    return key;
  }
}
