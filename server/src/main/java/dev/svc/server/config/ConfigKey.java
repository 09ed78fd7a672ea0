package dev.svc.server.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every configuration key of svc (access-server spec §2.5), server and command line alike, with its
 * type, its default and the environment variable that sets it. A config file may hold any of them,
 * so one {@code config.yaml} serves both {@code svc serve} and the client commands.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public enum ConfigKey {
  /** Debug logging. */
  DEBUG("debug", ConfigType.BOOL, "false"),
  /** The node's name on the mesh. */
  MESH_HOSTNAME("mesh.hostname", ConfigType.STRING, "svc"),
  /** The API port: 443 means HTTPS, anything else plain HTTP; 0 picks a free port. */
  MESH_PORT("mesh.port", ConfigType.PORT, "443"),
  /** The mesh node's state directory; empty means a per-user default. */
  MESH_STATE_DIR("mesh.stateDir", ConfigType.STRING, ""),
  /** The mesh DNS suffix; the command line only. */
  MESH_TAILNET("mesh.tailnet", ConfigType.STRING, ""),
  /** The capability name whose grants admit callers. */
  MESH_CAP_NAME("mesh.capName", ConfigType.STRING, "svc.dev/cap/svc"),
  /** How the node joins the tailnet. */
  MESH_MODE("mesh.mode", ConfigType.STRING, "managed", "managed", "external", "dev"),
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
  HEALTH_PORT("health.port", ConfigType.PORT, "8080"),
  /** The OTLP endpoint; empty disables export. */
  OTEL_ENDPOINT("otel.endpoint", ConfigType.STRING, ""),
  /** Plaintext OTLP transport. */
  OTEL_INSECURE("otel.insecure", ConfigType.BOOL, "true"),
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
  /** Where the Kubernetes API is: the usual cluster resolution, or an in-process stand-in. */
  KUBERNETES_MODE("kubernetes.mode", ConfigType.STRING, "cluster", "cluster", "embedded"),
  /** The value of {@code Retry-After}; 0 or less means 1. */
  API_RETRY_AFTER_SECONDS("api.retryAfterSeconds", ConfigType.INT, "1"),
  /** How many engine instances serve the API; 0 means one per available processor. */
  ENGINE_POOL_SIZE("engine.poolSize", ConfigType.INT, "0"),
  /** The timeout of an evaluation that names none; 0 means none. */
  ENGINE_EVAL_TIMEOUT("engine.evalTimeout", ConfigType.DURATION, "1s"),
  /** How long a request waits for a free engine instance before it is answered 503. */
  ENGINE_ACQUIRE_TIMEOUT("engine.acquireTimeout", ConfigType.DURATION, "1s"),
  /** The directory of {@code .sigil} files the configured policies compile from; empty means none. */
  POLICIES_DIR("policies.dir", ConfigType.STRING, ""),
  /** The policies to install from {@code policies.dir}: {@code name=policy}, or a policy under its own name. */
  POLICIES_INSTALL("policies.install", ConfigType.STRING_LIST, "[]"),
  /** Whether changed files in {@code policies.dir} are compiled and installed again while serving. */
  POLICIES_RELOAD("policies.reload", ConfigType.BOOL, "true"),
  /** The command line's colour theme. */
  OUTPUT_THEME("output.theme", ConfigType.STRING, "tokyo-night",
      "ascii", "dark", "dracula", "tokyo-night", "light", "notty", "markdown"),
  /** The command line's full help output. */
  OUTPUT_LONG("output.long", ConfigType.BOOL, "true"),
  /** The command line prints machine output only. */
  OUTPUT_QUIET("output.quiet", ConfigType.BOOL, "false"),
  /** The documentation command runs {@code markdownlint-cli2 --fix}. */
  OUTPUT_MARKDOWNLINT_FIX("output.markdownlint-fix", ConfigType.BOOL, "false"),
  /** The Kubernetes API URL handed to users. */
  CLUSTER_INFO_API_ENDPOINT("clusterInfo.apiEndpoint", ConfigType.STRING, ""),
  /** The cluster CA, base64 of PEM. */
  CLUSTER_INFO_CA_DATA("clusterInfo.caData", ConfigType.STRING, ""),
  /** Tell clients to skip TLS verification. */
  CLUSTER_INFO_INSECURE_SKIP_TLS_VERIFY("clusterInfo.insecureSkipTLSVerify", ConfigType.BOOL, "false"),
  /** Free-form labels shown to users. */
  CLUSTER_INFO_LABELS("clusterInfo.labels", ConfigType.STRING_MAP, "{}"),
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

  /** How a key's text or file value is read. */
  enum ConfigType {
    BOOL,
    INT,
    PORT,
    STRING,
    DURATION,
    STRING_MAP,
    STRING_LIST,
    GRANTS
  }

  private static final Map<String, ConfigKey> BY_LOWER_NAME =
      Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(k -> k.lowerName, Function.identity()));

  private final String key;
  private final String lowerName;
  private final ConfigType type;
  private final String defaultText;
  private final List<String> choices;

  ConfigKey(String key, ConfigType type, String defaultText, String... choices) {
    this.key = key;
    this.lowerName = key.toLowerCase(Locale.ROOT);
    this.type = type;
    this.defaultText = defaultText;
    this.choices = List.of(choices);
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

  /** The accepted values of a key that takes one of a few words; empty for any value. */
  List<String> choices() {
    return choices;
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
