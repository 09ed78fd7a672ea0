package dev.svc.cli.access;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.svc.cli.files.AtomicFile;
import dev.svc.client.ClientException;
import dev.svc.client.Problem;
import dev.svc.server.config.ConfigException;
import dev.svc.server.config.ConfigKey;
import dev.svc.server.config.ConfigLoader;
import dev.svc.server.config.ConfigProblem;
import dev.svc.server.config.ConfigSources;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The configuration as {@code svc config} shows and changes it (access-server spec §11.8): each key's
 * effective text (flag, environment, config file, default, as §2.1 orders them), and writing one key
 * into the config file while keeping the others (deviation D26): in place when the old value is a
 * plain scalar on its key's line, comments and layout kept; else by rewriting the document, which
 * keeps every key but not the comments.
 */
final class ConfigSettings {

  private static final YAMLMapper YAML = YAMLMapper.builder()
      .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
      .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
      .build();
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ClientCommand command;
  private final Optional<Path> file;
  private final ObjectNode fileTree;

  private ConfigSettings(ClientCommand command, Optional<Path> file, ObjectNode fileTree) {
    this.command = command;
    this.file = file;
    this.fileTree = fileTree;
  }

  /** The settings of {@code command}'s flags, environment and config file (already validated). */
  static ConfigSettings of(ClientCommand command, Optional<Path> file) {
    ObjectNode tree = JsonNodeFactory.instance.objectNode();
    if (file.isPresent() && Files.isRegularFile(file.get())) {
      try {
        JsonNode read = YAML.readTree(file.get().toFile());
        if (read instanceof ObjectNode object) {
          tree = object;
        }
      } catch (IOException e) {
        throw new ClientException(new Problem("error reading config file", List.of("fix the file's YAML"),
            List.of(e.getMessage().lines().findFirst().orElse(""))));
      }
    }
    return new ConfigSettings(command, file, tree);
  }

  /** The config file in use, if any. */
  Optional<Path> file() {
    return file;
  }

  /** A key's effective value as text; empty when nothing sets it to a non-empty value. */
  Optional<String> value(ConfigKey key) {
    ConfigSources.Flag flag = command.options.flags().get(key);
    if (flag != null) {
      return Optional.of(flag.value());
    }
    String env = command.runtime.environment().get(key.environmentVariable());
    if (env != null && !env.isEmpty()) {
      return Optional.of(env);
    }
    Optional<JsonNode> written = find(fileTree, key.key());
    if (written.isPresent() && !written.get().isNull()) {
      JsonNode node = written.get();
      return Optional.of(node.isValueNode() ? node.asText() : node.toString()).filter(s -> !s.isEmpty());
    }
    return Optional.of(key.defaultText()).filter(s -> !s.isEmpty());
  }

  /** Every key's effective value as nested YAML, in the key table's order. */
  String effectiveYaml() {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    for (ConfigKey key : ConfigKey.values()) {
      String[] parts = key.key().split("\\.");
      ObjectNode parent = root;
      for (int i = 0; i < parts.length - 1; i++) {
        parent = parent.get(parts[i]) instanceof ObjectNode child ? child : parent.putObject(parts[i]);
      }
      parent.set(parts[parts.length - 1], typed(value(key).orElse("")));
    }
    return yaml(root);
  }

  private static String yaml(JsonNode tree) {
    try {
      return YAML.writeValueAsString(tree);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a YAML tree always serializes", e);
    }
  }

  /** A value as YAML writes it after {@code key: }, such as {@code 9443} or {@code "true"}. */
  private static String rendered(JsonNode value) {
    ObjectNode single = JsonNodeFactory.instance.objectNode();
    single.set("k", value);
    return yaml(single).substring("k: ".length()).stripTrailing();
  }

  /**
   * Writes {@code key: value} into the config file in use, or with {@code force} into
   * {@code ~/.config/svc/config.yaml}, keeping every other key; a value the key can't take is refused
   * with the loader's message.
   *
   * @return the file written
   */
  Path write(ConfigKey key, String value, boolean force) {
    Path target = file.orElseGet(() -> {
      if (!force) {
        throw new ClientException(Problem.of("no config file is in use",
            "run the command again with --force to create " + defaultFile(),
            "or name a file with --config"));
      }
      return defaultFile();
    });
    check(key, value);
    JsonNode typed = typed(value);
    new AtomicFile(target, command.runtime.pause(), PosixFilePermissions.fromString("rwxr-xr-x")).update(old -> {
      Optional<String> inPlace = old.flatMap(bytes ->
          YamlScalarEdit.replace(new String(bytes, StandardCharsets.UTF_8), key.key(), rendered(typed)));
      if (inPlace.isPresent()) {
        return Optional.of(inPlace.get().getBytes(StandardCharsets.UTF_8));
      }
      ObjectNode tree = old.map(ConfigSettings::parse).orElseGet(JsonNodeFactory.instance::objectNode);
      put(tree, key.key(), typed);
      return Optional.of(yaml(tree).getBytes(StandardCharsets.UTF_8));
    }, Optional.empty());
    return target;
  }

  private Path defaultFile() {
    return command.runtime.home().resolve(".config").resolve("svc").resolve(ConfigSources.FILE_NAME);
  }

  /** Loads the configuration with the new value as if given by a flag: the loader's checks decide. */
  private void check(ConfigKey key, String value) {
    ConfigSources sources = command.sources();
    Map<ConfigKey, ConfigSources.Flag> flags = new EnumMap<>(ConfigKey.class);
    flags.putAll(sources.flags());
    flags.put(key, new ConfigSources.Flag("value", value));
    try {
      ConfigLoader.loadForClient(new ConfigSources(flags, sources.environment(), sources.explicitFile(),
          sources.searchDirectories()));
    } catch (ConfigException e) {
      List<ConfigProblem> problems = e.problems();
      throw new ClientException(new Problem("`" + value + "` isn't a value of " + key.key(),
          problems.stream().map(ConfigProblem::help).distinct().toList(),
          problems.stream().map(ConfigProblem::message).toList()));
    }
  }

  private static ObjectNode parse(byte[] text) {
    try {
      JsonNode node = YAML.readTree(text);
      return node instanceof ObjectNode object ? object : JsonNodeFactory.instance.objectNode();
    } catch (IOException e) {
      throw new ClientException(new Problem("error reading config file", List.of("fix the file's YAML"),
          List.of(e.getMessage().lines().findFirst().orElse(""))));
    }
  }

  /** §11.8: {@code true}/{@code false} as booleans, integer literals as integers, JSON lists and maps as such. */
  static JsonNode typed(String value) {
    if (value.equals("true") || value.equals("false")) {
      return JsonNodeFactory.instance.booleanNode(Boolean.parseBoolean(value));
    }
    if (value.matches("-?[0-9]{1,9}")) {
      return JsonNodeFactory.instance.numberNode(Integer.parseInt(value));
    }
    if (value.startsWith("[") || value.startsWith("{")) {
      try {
        return JSON.readTree(value);
      } catch (IOException notJson) {
        // a string that merely starts like JSON
      }
    }
    return JsonNodeFactory.instance.textNode(value);
  }

  /** The node of a dotted key: written flat ({@code mesh.port:}) or nested, in any case. */
  private static Optional<JsonNode> find(ObjectNode tree, String key) {
    Optional<Map.Entry<String, JsonNode>> flat = field(tree, key);
    if (flat.isPresent()) {
      return Optional.of(flat.get().getValue());
    }
    int dot = key.indexOf('.');
    if (dot < 0) {
      return Optional.empty();
    }
    return field(tree, key.substring(0, dot))
        .filter(e -> e.getValue() instanceof ObjectNode)
        .flatMap(e -> find((ObjectNode) e.getValue(), key.substring(dot + 1)));
  }

  /** Sets a dotted key where it is written already, else nested under existing or new sections. */
  private static void put(ObjectNode tree, String key, JsonNode value) {
    Optional<Map.Entry<String, JsonNode>> flat = field(tree, key);
    if (flat.isPresent()) {
      tree.set(flat.get().getKey(), value);
      return;
    }
    int dot = key.indexOf('.');
    if (dot < 0) {
      tree.set(key, value);
      return;
    }
    String section = key.substring(0, dot);
    Optional<Map.Entry<String, JsonNode>> existing = field(tree, section).filter(e -> e.getValue() instanceof ObjectNode);
    ObjectNode child = existing.map(e -> (ObjectNode) e.getValue()).orElseGet(() -> tree.putObject(section));
    put(child, key.substring(dot + 1), value);
  }

  private static Optional<Map.Entry<String, JsonNode>> field(ObjectNode tree, String name) {
    for (Iterator<Map.Entry<String, JsonNode>> it = tree.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      if (entry.getKey().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        return Optional.of(entry);
      }
    }
    return Optional.empty();
  }
}
