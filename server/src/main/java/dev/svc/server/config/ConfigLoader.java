package dev.svc.server.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.svc.engine.Isolation;
import dev.svc.engine.Limits;
import dev.svc.engine.Nearest;
import dev.svc.server.config.ConfigKey.ConfigType;
import dev.svc.server.config.SvcConfig.KubernetesMode;
import dev.svc.server.config.SvcConfig.MeshMode;
import dev.svc.server.mesh.GrantRule;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the configuration from flags, environment, config file and defaults, in that precedence
 * (access-server spec §2), and validates all of it before anything starts.
 *
 * <p>Each key takes its value from the first source that sets it: a flag the user passed, then the
 * variable {@link ConfigKey#environmentVariable()} (an empty variable counts as unset), then the config
 * file, then the default. The config file is {@code --config}'s, or the first {@code config.yaml} of
 * the search directories; its keys nest ({@code mesh:} then {@code port:}) or are written dotted
 * ({@code mesh.port:}), match whatever their case, and a key with no value counts as unset.
 *
 * <p>Every problem is collected, each naming its key and the source the value came from, and thrown
 * together as one {@link ConfigException}: a wrong type, an unknown value, an unknown key in the file
 * (with a did-you-mean), and keys that contradict each other.
 *
 * <p><b>Thread safety:</b> stateless and thread-safe.
 */
public final class ConfigLoader {

  private static final YAMLMapper YAML =
      YAMLMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
  private static final ObjectMapper JSON = new ObjectMapper();
  // strconv.ParseBool's words, which Go's configuration library accepts for a boolean.
  private static final Set<String> TRUE_WORDS = Set.of("1", "t", "T", "TRUE", "true", "True");
  private static final Set<String> FALSE_WORDS = Set.of("0", "f", "F", "FALSE", "false", "False");
  private static final String DEFAULT_SOURCE = "default";
  private static final String KEYS_HELP = "conf/config.yaml lists every key";
  // The longest engine.loopEvalBudget: a slow policy may hold an event loop that long per pause.
  private static final Duration MAX_LOOP_EVAL_BUDGET = Duration.ofMillis(100);
  private static final Pairs.Form LABELS = new Pairs.Form("label", false);
  private static final Pairs.Form INSTALLS = new Pairs.Form("policy", true);
  private static final Pattern BYTE_SIZE = Pattern.compile("(\\d+)\\s*(B|KiB|MiB|GiB)?");
  private static final Map<String, Long> BYTE_UNITS =
      Map.of("B", 1L, "KiB", 1L << 10, "MiB", 1L << 20, "GiB", 1L << 30);
  private static final long MIN_MEMORY = 16L << 20;
  private static final long MAX_MEMORY = 4L << 30;

  /** A key's value as a source gave it, before it is read as the key's type. */
  private record Raw(JsonNode value, String source) {}

  /** A value that can't be read as its key's type: what is wrong and what to do. */
  private static final class Invalid extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String help;

    Invalid(String message, String help) {
      super(message, null, false, false);
      this.help = help;
    }
  }

  private final ConfigSources sources;
  private final boolean serverStart;
  private final List<ConfigProblem> problems = new ArrayList<>();
  private final Map<ConfigKey, Raw> chosen = new EnumMap<>(ConfigKey.class);
  private final Set<ConfigKey> read = EnumSet.noneOf(ConfigKey.class);

  private ConfigLoader(ConfigSources sources, boolean serverStart) {
    this.sources = sources;
    this.serverStart = serverStart;
  }

  /**
   * The configuration {@code sources} give.
   *
   * @param sources the flags, environment and config file to read
   * @return the validated configuration
   * @throws ConfigException with every problem found, if there is any
   */
  public static SvcConfig load(ConfigSources sources) {
    return new ConfigLoader(sources, true).load();
  }

  /**
   * The configuration {@code sources} give, for the client commands: read and checked as
   * {@link #load} does, but without the checks of a server's start (spec §2.6, the cluster info), so a
   * {@code config.yaml} shared with a server the client doesn't run never stops a client command.
   *
   * @param sources the flags, environment and config file to read
   * @return the configuration
   * @throws ConfigException with every problem found but the server's start checks, if there is any
   */
  public static SvcConfig loadForClient(ConfigSources sources) {
    return new ConfigLoader(sources, false).load();
  }

  private SvcConfig load() {
    Map<ConfigKey, Raw> file = readFile();
    for (ConfigKey key : ConfigKey.values()) {
      chosen.put(key, choose(key, file));
    }
    SvcConfig config = build();
    Set<ConfigKey> unread = EnumSet.complementOf(EnumSet.copyOf(read));
    if (!unread.isEmpty()) {
      // A key declared but not read would be accepted and then ignored: a bug here, not in the config.
      throw new IllegalStateException("ConfigLoader.build reads no SvcConfig field from " + unread);
    }
    checkAcrossKeys(config);
    if (!serverStart) {
      problems.removeIf(problem -> problem.stage() == ConfigProblem.Stage.START);
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return config;
  }

  private Raw choose(ConfigKey key, Map<ConfigKey, Raw> file) {
    ConfigSources.Flag flag = sources.flags().get(key);
    if (flag != null) {
      return new Raw(TextNode.valueOf(flag.value()), "flag " + flag.option());
    }
    String env = sources.environment().get(key.environmentVariable());
    if (env != null && !env.isEmpty()) {
      return new Raw(TextNode.valueOf(env), "environment variable " + key.environmentVariable());
    }
    Raw fromFile = file.get(key);
    if (fromFile != null) {
      return fromFile;
    }
    return new Raw(TextNode.valueOf(key.defaultText()), DEFAULT_SOURCE);
  }

  private SvcConfig build() {
    int healthPort = integer(ConfigKey.HEALTH_PORT);
    int retryAfter = integer(ConfigKey.API_RETRY_AFTER_SECONDS);
    boolean otelInsecure = bool(ConfigKey.OTEL_INSECURE);
    return new SvcConfig(
        bool(ConfigKey.DEBUG),
        new SvcConfig.Mesh(
            string(ConfigKey.MESH_HOSTNAME),
            integer(ConfigKey.MESH_PORT),
            string(ConfigKey.MESH_STATE_DIR),
            string(ConfigKey.MESH_TAILNET),
            string(ConfigKey.MESH_CAP_NAME),
            choice(ConfigKey.MESH_MODE, MeshMode.class),
            string(ConfigKey.MESH_SOCKET),
            string(ConfigKey.MESH_TAILSCALED),
            string(ConfigKey.MESH_CONTROL_URL),
            bool(ConfigKey.MESH_LOG_UPLOAD),
            new SvcConfig.DevCaller(string(ConfigKey.MESH_DEV_LOGIN), grants(ConfigKey.MESH_DEV_GRANTS))),
        new SvcConfig.Server(
            duration(ConfigKey.SERVER_READ_TIMEOUT),
            duration(ConfigKey.SERVER_READ_HEADER_TIMEOUT),
            duration(ConfigKey.SERVER_WRITE_TIMEOUT),
            duration(ConfigKey.SERVER_IDLE_TIMEOUT)),
        new SvcConfig.Health(healthPort == 0 ? 8080 : healthPort),
        new SvcConfig.Otel(otelEndpoint(otelInsecure), otelInsecure),
        new SvcConfig.Kubernetes(choice(ConfigKey.KUBERNETES_MODE, KubernetesMode.class)),
        new SvcConfig.Operator(
            string(ConfigKey.OPERATOR_NAMESPACE),
            string(ConfigKey.OPERATOR_CLUSTER_NAME),
            string(ConfigKey.OPERATOR_CONTEXT_PREFIX),
            string(ConfigKey.OPERATOR_USER_PREFIX),
            roles(ConfigKey.OPERATOR_ALLOWED_ROLES)),
        new SvcConfig.Api(Math.max(1, retryAfter)),
        new SvcConfig.Output(
            string(ConfigKey.OUTPUT_THEME),
            bool(ConfigKey.OUTPUT_LONG),
            bool(ConfigKey.OUTPUT_QUIET),
            bool(ConfigKey.OUTPUT_MARKDOWNLINT_FIX)),
        new SvcConfig.ClusterInfo(
            string(ConfigKey.CLUSTER_INFO_API_ENDPOINT),
            string(ConfigKey.CLUSTER_INFO_CA_DATA),
            bool(ConfigKey.CLUSTER_INFO_INSECURE_SKIP_TLS_VERIFY),
            labels(ConfigKey.CLUSTER_INFO_LABELS),
            new SvcConfig.ConfigMapRef(
                bool(ConfigKey.CONFIG_MAP_ENABLED),
                string(ConfigKey.CONFIG_MAP_NAME),
                string(ConfigKey.CONFIG_MAP_NAMESPACE),
                new SvcConfig.ConfigMapKeys(
                    string(ConfigKey.CONFIG_MAP_KEY_API_ENDPOINT),
                    string(ConfigKey.CONFIG_MAP_KEY_CA_DATA),
                    string(ConfigKey.CONFIG_MAP_KEY_INSECURE),
                    string(ConfigKey.CONFIG_MAP_KEY_CLIENTCONFIG)))),
        new SvcConfig.Engine(
            count(ConfigKey.ENGINE_POOL_SIZE),
            duration(ConfigKey.ENGINE_EVAL_TIMEOUT),
            duration(ConfigKey.ENGINE_ACQUIRE_TIMEOUT),
            byteSize(ConfigKey.ENGINE_MAX_MEMORY),
            duration(ConfigKey.ENGINE_MAX_EVAL_TIMEOUT),
            Isolation.valueOf(string(ConfigKey.ENGINE_ISOLATION).replace('-', '_').toUpperCase(Locale.ROOT)),
            duration(ConfigKey.ENGINE_LOOP_EVAL_BUDGET)),
        new SvcConfig.Policies(
            Optional.of(string(ConfigKey.POLICIES_DIR)).filter(dir -> !dir.isEmpty()).map(Path::of),
            installs(ConfigKey.POLICIES_INSTALL),
            bool(ConfigKey.POLICIES_RELOAD)));
  }

  // ---- the config file

  private Map<ConfigKey, Raw> readFile() {
    Optional<Path> found = sources.explicitFile().or(this::searchFile);
    if (found.isEmpty()) {
      return Map.of();
    }
    Path path = found.get();
    Map<ConfigKey, Raw> values = new EnumMap<>(ConfigKey.class);
    try (InputStream in = Files.newInputStream(path); JsonParser parser = YAML.createParser(in)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        return values;
      }
      if (first != JsonToken.START_OBJECT) {
        problems.add(new ConfigProblem("config file " + where(path, parser.currentTokenLocation()), "",
            "the file isn't a mapping of keys to values",
            "write one key per line, such as `mesh:` and below it `  port: 8443`; " + KEYS_HELP));
        return values;
      }
      readMapping(parser, "", path, values);
    } catch (NoSuchFileException e) {
      problems.add(new ConfigProblem("", "", "error reading config file: " + path + " doesn't exist",
          "give --config an existing file, or leave it out to search ., $HOME/.config/svc/ and /etc/svc/"));
    } catch (JsonProcessingException e) {
      problems.add(new ConfigProblem("", "",
          "error reading config file: " + where(path, e.getLocation()) + ": " + e.getOriginalMessage(),
          "fix the YAML syntax at that line; " + KEYS_HELP));
    } catch (IOException e) {
      problems.add(new ConfigProblem("", "", "error reading config file: " + path + ": " + e.getMessage(),
          "make the file readable, or point --config at another one"));
    }
    return values;
  }

  private Optional<Path> searchFile() {
    return sources.searchDirectories().stream()
        .map(dir -> dir.resolve(ConfigSources.FILE_NAME))
        .filter(Files::isRegularFile)
        .findFirst();
  }

  // INVARIANT: the parser stands on the START_OBJECT of the mapping at `prefix`.
  private void readMapping(JsonParser parser, String prefix, Path path, Map<ConfigKey, Raw> values)
      throws IOException {
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = prefix.isEmpty() ? parser.currentName() : prefix + "." + parser.currentName();
      String source = "config file " + where(path, parser.currentTokenLocation());
      JsonToken token = parser.nextToken();
      Optional<ConfigKey> key = ConfigKey.byName(name);
      if (key.isPresent()) {
        JsonNode value = parser.readValueAsTree();
        if (values.containsKey(key.get())) {
          problems.add(new ConfigProblem(source, key.get().key(), "is set a second time in the file",
              "keep one of the two; the first is at " + values.get(key.get()).source()));
        } else if (!value.isNull()) {
          values.put(key.get(), new Raw(value, source));
        }
      } else if (ConfigKey.isSection(name)) {
        if (token == JsonToken.START_OBJECT) {
          readMapping(parser, name, path, values);
        } else {
          parser.skipChildren();
          problems.add(new ConfigProblem(source, name, "is a section of keys, not a value",
              "write its keys indented below it; " + KEYS_HELP));
        }
      } else {
        parser.skipChildren();
        problems.add(new ConfigProblem(source, name, "unknown key",
            Nearest.ENGINE.to(name, ConfigKey.names()).map(n -> "did you mean `" + n + "`? ").orElse("") + KEYS_HELP));
      }
    }
  }

  private static String where(Path path, JsonLocation location) {
    return location == null ? path.toString() : path + ":" + location.getLineNr() + ":" + location.getColumnNr();
  }

  // ---- reading one key's value as its type; a wrong value is a problem, and the default stands in

  private <T> T read(ConfigKey key, Set<ConfigType> types, Function<JsonNode, T> parse) {
    if (!types.contains(key.type())) {
      throw new IllegalStateException(key + " is declared " + key.type() + " but read as " + types);
    }
    read.add(key);
    Raw raw = chosen.get(key);
    try {
      return parse.apply(raw.value());
    } catch (Invalid e) {
      problems.add(new ConfigProblem(raw.source(), key.key(), e.getMessage(), e.help));
      return parse.apply(TextNode.valueOf(key.defaultText()));
    }
  }

  private boolean bool(ConfigKey key) {
    return read(key, EnumSet.of(ConfigType.BOOL), value -> {
      if (value.isBoolean()) {
        return value.booleanValue();
      }
      String text = scalar(value, "true or false");
      if (TRUE_WORDS.contains(text)) {
        return true;
      }
      if (FALSE_WORDS.contains(text)) {
        return false;
      }
      throw new Invalid("`" + text + "` isn't a boolean", "write true or false");
    });
  }

  private int integer(ConfigKey key) {
    boolean port = key.type() == ConfigType.PORT;
    String help = port ? "write a port number from 0 to 65535" : "write a whole number, such as 1";
    return read(key, EnumSet.of(ConfigType.INT, ConfigType.PORT), value -> {
      String text = scalar(value, port ? "a port number" : "a whole number");
      int number;
      try {
        number = value.isIntegralNumber() && value.canConvertToInt() ? value.intValue() : Integer.parseInt(text);
      } catch (NumberFormatException e) {
        throw new Invalid("`" + text + "` isn't a whole number", help);
      }
      if (port && (number < 0 || number > 65535)) {
        throw new Invalid("`" + text + "` isn't a port number", help);
      }
      return number;
    });
  }

  private String string(ConfigKey key) {
    return read(key, EnumSet.of(ConfigType.STRING), value -> {
      String text = scalar(value, "a single value");
      List<String> choices = key.choices();
      if (!choices.isEmpty() && !choices.contains(text)) {
        throw new Invalid("unknown value `" + text + "`",
            Nearest.ENGINE.to(text, choices).map(n -> "did you mean `" + n + "`? ").orElse("")
                + "the values are " + String.join(", ", choices));
      }
      return text;
    });
  }

  private Duration duration(ConfigKey key) {
    return read(key, EnumSet.of(ConfigType.DURATION), value -> {
      String text = scalar(value, "a duration such as 10s");
      Duration duration;
      try {
        duration = GoDuration.parse(text);
      } catch (IllegalArgumentException e) {
        throw new Invalid(e.getMessage(),
            "write a Go duration such as 90s, 1h30m or 1.5h: numbers with a unit each, one of ns, us, ms, s, m, h");
      }
      if (duration.isNegative()) {
        throw new Invalid("`" + text + "` is negative", "write 0 for no timeout, or a positive duration such as 10s");
      }
      return duration;
    });
  }

  // Whole bytes, or a whole number of KiB, MiB or GiB; at least what an instance needs to start, at
  // most the 4 GiB a wasm32 module can address.
  private long byteSize(ConfigKey key) {
    String help = "write a size such as 256MiB: a whole number of B, KiB, MiB or GiB, from 16MiB to 4GiB";
    return read(key, EnumSet.of(ConfigType.BYTE_SIZE), value -> {
      String text = scalar(value, "a size such as 256MiB");
      Matcher size = BYTE_SIZE.matcher(text.strip());
      if (!size.matches()) {
        throw new Invalid("`" + text + "` isn't a byte size", help);
      }
      long bytes;
      try {
        bytes = Math.multiplyExact(Long.parseLong(size.group(1)),
            size.group(2) == null ? 1L : BYTE_UNITS.get(size.group(2)));
      } catch (ArithmeticException | NumberFormatException e) {
        throw new Invalid("`" + text + "` is too large", help);
      }
      if (bytes < MIN_MEMORY || bytes > MAX_MEMORY) {
        throw new Invalid("`" + text + "` is " + (bytes < MIN_MEMORY ? "less than 16MiB" : "more than 4GiB"), help);
      }
      return bytes;
    });
  }

  private Map<String, String> labels(ConfigKey key) {
    String help = "write labels as a mapping, as k1=v1,k2=v2, or as a JSON object such as {\"env\": \"staging\"}";
    return read(key, EnumSet.of(ConfigType.STRING_MAP), value -> {
      if (value.isTextual() && !value.textValue().strip().startsWith("{")) {
        return pairs(Pairs.entries(value.textValue()), LABELS, help);
      }
      JsonNode mapping = value.isTextual() ? json(value.textValue(), help) : value;
      if (!mapping.isObject()) {
        throw new Invalid("labels are a mapping of names to values, not " + describe(mapping), help);
      }
      Map<String, String> labels = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> label : mapping.properties()) {
        if (label.getKey().isEmpty()) {
          throw new Invalid("a label has an empty name", help);
        }
        labels.put(label.getKey(), scalar(label.getValue(), "one value for label `" + label.getKey() + "`"));
      }
      return labels;
    });
  }

  // The shared reading of `k=v,...` (Pairs), its mistakes reported under the key that holds them.
  private static Map<String, String> pairs(List<String> entries, Pairs.Form form, String help) {
    try {
      return Pairs.read(entries, form);
    } catch (Pairs.Malformed e) {
      throw new Invalid(e.getMessage(), help);
    }
  }

  private <E extends Enum<E>> E choice(ConfigKey key, Class<E> type) {
    return Enum.valueOf(type, string(key).toUpperCase(Locale.ROOT));
  }

  private int count(ConfigKey key) {
    int number = integer(key);
    if (number < 0) {
      problems.add(new ConfigProblem(chosen.get(key).source(), key.key(), "`" + number + "` is negative",
          "write 0 for one per available processor, or a positive number"));
      return 0;
    }
    return number;
  }

  // `name=policy` serves the root policy under another name; a bare policy serves it under its own.
  private Map<String, String> installs(ConfigKey key) {
    String help = "list policies as [access.main, web=access.web], or as text access.main,web=access.web";
    return read(key, EnumSet.of(ConfigType.STRING_LIST), value -> {
      Map<String, String> installs =
          pairs(entries(value, "policies to install", "a policy name or name=policy", help), INSTALLS, help);
      for (String name : installs.keySet()) {
        if (!PolicyNames.valid(name)) {
          throw new Invalid("`" + PolicyNames.printable(name) + "` isn't a policy name", PolicyNames.HELP);
        }
      }
      return installs;
    });
  }

  private List<String> roles(ConfigKey key) {
    String help = "list ClusterRoles as [view, edit], or as text view,edit; an empty list allows any";
    return read(key, EnumSet.of(ConfigType.STRING_LIST), value -> {
      List<String> entries = entries(value, "roles", "a role name", help);
      try {
        return Pairs.names(entries, "role");
      } catch (Pairs.Malformed e) {
        throw new Invalid(e.getMessage(), help);
      }
    });
  }

  // A list is text separated by commas, a JSON list in text, or a list in the file; `what` are its items.
  private static List<String> entries(JsonNode value, String what, String wanted, String help) {
    if (value.isTextual() && !value.textValue().strip().startsWith("[")) {
      return Pairs.entries(value.textValue());
    }
    JsonNode list = value.isTextual() ? json(value.textValue(), help) : value;
    if (!list.isArray()) {
      throw new Invalid(what + " are a list, not " + describe(list), help);
    }
    List<String> entries = new ArrayList<>();
    for (JsonNode item : list) {
      entries.add(scalar(item, wanted));
    }
    return entries;
  }

  private List<GrantRule> grants(ConfigKey key) {
    String help = "write grants as a list of objects such as {role: view, period: 1h, priority: 10}; role and"
        + " period are required";
    return read(key, EnumSet.of(ConfigType.GRANTS), value -> {
      JsonNode list = value.isTextual() ? json(value.textValue(), help) : value;
      if (!list.isArray()) {
        throw new Invalid("grants are a list, not " + describe(list), help);
      }
      List<GrantRule> rules = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        String which = "grant " + (i + 1);
        GrantRule rule;
        try {
          rule = GrantRule.decode(list.get(i));
        } catch (IllegalArgumentException e) {
          throw new Invalid(which + ": " + e.getMessage(), help);
        }
        if (rule.role().isEmpty()) {
          throw new Invalid(which + " has no role", help);
        }
        try {
          GoDuration.parse(rule.period());
        } catch (IllegalArgumentException e) {
          throw new Invalid(which + ": period: " + (rule.period().isEmpty() ? "missing" : e.getMessage()), help);
        }
        rules.add(rule);
      }
      return rules;
    });
  }

  // An endpoint without a scheme takes it from otel.insecure; one with a scheme must agree with it.
  private Optional<URI> otelEndpoint(boolean insecure) {
    return read(ConfigKey.OTEL_ENDPOINT, EnumSet.of(ConfigType.STRING), value -> {
      String text = scalar(value, "an address such as localhost:4317").strip();
      if (text.isEmpty()) {
        return Optional.empty();
      }
      String help = "write the collector's OTLP address: localhost:4317 for gRPC, http://collector:4318 for HTTP";
      URI uri;
      try {
        uri = new URI(text.contains("://") ? text : (insecure ? "http://" : "https://") + text);
      } catch (URISyntaxException e) {
        throw new Invalid("`" + text + "` isn't an address: " + e.getReason(), help);
      }
      if (uri.getHost() == null) {
        throw new Invalid("`" + text + "` names no host", help);
      }
      if (!uri.getScheme().equals("http") && !uri.getScheme().equals("https")) {
        throw new Invalid("`" + text + "` isn't an http or https address", help);
      }
      return Optional.of(uri);
    });
  }

  private static JsonNode json(String text, String help) {
    try {
      return JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new Invalid("`" + text + "` isn't JSON: " + e.getOriginalMessage(), help);
    }
  }

  private static String scalar(JsonNode value, String wanted) {
    if (!value.isValueNode() || value.isNull()) {
      throw new Invalid(describe(value) + " isn't " + wanted, "give the key one value, such as it has in conf/config.yaml");
    }
    return value.asText();
  }

  private static String describe(JsonNode value) {
    if (value.isArray()) {
      return "a list";
    }
    if (value.isObject()) {
      return "a mapping";
    }
    return value.isNull() ? "nothing" : "`" + value.asText() + "`";
  }

  // ---- keys that must agree with each other

  private void checkAcrossKeys(SvcConfig config) {
    config.otel().endpoint().ifPresent(endpoint -> {
      String scheme = endpoint.getScheme();
      if (scheme.equals("https") && config.otel().insecure() || scheme.equals("http") && !config.otel().insecure()) {
        problem(ConfigKey.OTEL_ENDPOINT, ConfigKey.OTEL_INSECURE,
            "`" + endpoint + "` is " + (scheme.equals("https") ? "TLS" : "plaintext") + ", but otel.insecure is "
                + config.otel().insecure(),
            "make them agree, or write the endpoint as host:port and let otel.insecure choose");
      }
    });
    checkEvalTimeouts(config.engine());
    checkLoopEvalBudget(config.engine().loopEvalBudget());
    SvcConfig.Policies policies = config.policies();
    if (!policies.install().isEmpty() && policies.dir().isEmpty()) {
      problem(ConfigKey.POLICIES_INSTALL, ConfigKey.POLICIES_DIR, "names policies, but no directory holds them",
          "set policies.dir to the directory of their .sigil files");
    }
    policies.dir().filter(dir -> !Files.isDirectory(dir)).ifPresent(dir -> problems.add(new ConfigProblem(
        chosen.get(ConfigKey.POLICIES_DIR).source(), ConfigKey.POLICIES_DIR.key(), "`" + dir + "` isn't a directory",
        "give the directory of the .sigil files, such as conf/policies")));
    SvcConfig.ClusterInfo info = config.clusterInfo();
    if (!info.apiEndpoint().isEmpty() && info.configMapRef().enabled()) {
      startProblem(ConfigKey.CLUSTER_INFO_API_ENDPOINT, ConfigKey.CONFIG_MAP_ENABLED,
          "both are set", "use either explicit cluster info or the ConfigMap reference, not both");
    }
    if (info.configMapRef().enabled()) {
      Map<ConfigKey, String> names = Map.of(
          ConfigKey.CONFIG_MAP_NAME, info.configMapRef().name(),
          ConfigKey.CONFIG_MAP_NAMESPACE, info.configMapRef().namespace());
      for (ConfigKey part : List.of(ConfigKey.CONFIG_MAP_NAME, ConfigKey.CONFIG_MAP_NAMESPACE)) {
        if (names.get(part).isEmpty()) {
          startProblem(part, ConfigKey.CONFIG_MAP_ENABLED, "is empty, but the ConfigMap reference is enabled",
              "name the ConfigMap and its namespace, or set clusterInfo.configMapRef.enabled to false");
        }
      }
    }
    try {
      Base64.getDecoder().decode(info.caData().replace("\r", "").replace("\n", ""));
    } catch (IllegalArgumentException e) {
      Raw raw = chosen.get(ConfigKey.CLUSTER_INFO_CA_DATA);
      problems.add(new ConfigProblem(raw.source(), ConfigKey.CLUSTER_INFO_CA_DATA.key(),
          "isn't base64: " + e.getMessage(),
          "write the cluster's CA certificate (PEM) as base64, such as `base64 -w0 ca.crt` prints",
          ConfigProblem.Stage.START));
    }
  }

  // The cap on timeout_ms is a cap: positive, above the default, and never past the operation deadline
  // (an evaluation's hard deadline is its timeout plus the grace).
  private void checkEvalTimeouts(SvcConfig.Engine engine) {
    Duration max = engine.maxEvalTimeout();
    Duration ceiling = Limits.DEFAULT_OP_DEADLINE.minus(Limits.DEFAULT_GRACE);
    if (max.isZero()) {
      problem(ConfigKey.ENGINE_MAX_EVAL_TIMEOUT, "is 0, but evaluations need a cap",
          "give the largest timeout_ms callers may ask for, such as 5s");
    } else if (max.compareTo(ceiling) > 0) {
      problem(ConfigKey.ENGINE_MAX_EVAL_TIMEOUT,
          "is more than " + GoDuration.format(ceiling) + ", past which an evaluation would outlive the operation"
              + " deadline of " + GoDuration.format(Limits.DEFAULT_OP_DEADLINE),
          "give at most " + GoDuration.format(ceiling));
    }
    if (engine.evalTimeout().compareTo(max) > 0 && !max.isZero()) {
      problem(ConfigKey.ENGINE_EVAL_TIMEOUT, ConfigKey.ENGINE_MAX_EVAL_TIMEOUT,
          "is longer than engine.maxEvalTimeout", "make the default at most the cap, or raise the cap");
    }
  }

  // Off, or whole milliseconds the engine can count, short enough that the connections sharing an event
  // loop barely notice a slow policy holding it.
  private void checkLoopEvalBudget(Duration budget) {
    String help = "give 0 to evaluate on the pool's threads only, or from 1ms to "
        + GoDuration.format(MAX_LOOP_EVAL_BUDGET) + " such as 2ms";
    if (!budget.isZero() && budget.compareTo(Duration.ofMillis(1)) < 0) {
      problem(ConfigKey.ENGINE_LOOP_EVAL_BUDGET, "is less than 1ms, the least timeout the engine counts", help);
    } else if (budget.compareTo(MAX_LOOP_EVAL_BUDGET) > 0) {
      problem(ConfigKey.ENGINE_LOOP_EVAL_BUDGET,
          "is more than " + GoDuration.format(MAX_LOOP_EVAL_BUDGET) + ": a slow policy would hold an event loop,"
              + " and every connection on it, that long", help);
    }
  }

  private void problem(ConfigKey key, String message, String help) {
    problems.add(new ConfigProblem(chosen.get(key).source(), key.key(), message, help));
  }

  private void problem(ConfigKey key, ConfigKey other, String message, String help) {
    problems.add(acrossKeys(key, other, message, help, ConfigProblem.Stage.READ));
  }

  // The cluster info's checks of spec §2.6: a server refuses to start with them (exit 1).
  private void startProblem(ConfigKey key, ConfigKey other, String message, String help) {
    problems.add(acrossKeys(key, other, message, help, ConfigProblem.Stage.START));
  }

  private ConfigProblem acrossKeys(ConfigKey key, ConfigKey other, String message, String help,
      ConfigProblem.Stage stage) {
    return new ConfigProblem(chosen.get(key).source() + " and " + chosen.get(other).source() + " (" + other.key()
        + ")", key.key(), message, help, stage);
  }
}
