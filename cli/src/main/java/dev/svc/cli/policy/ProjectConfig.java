package dev.svc.cli.policy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.svc.engine.LintLevel;
import dev.svc.engine.Requirement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The policy repository's configuration file (tooling spec §3.5): extra kind files, required
 * policies, lint levels. Found as the nearest {@code sigil.yaml}, {@code .sigil.yaml}, {@code
 * sigil.json} or {@code .sigil.json} at or above the working directory, or named by {@code
 * --config}. Paths in it are relative to its directory and come out relative to the working
 * directory, as the command's arguments are.
 *
 * @param file the file's name as the command shows it; empty without a file
 * @param kinds kind files to load
 * @param requirements the {@code require} entries, each with where it is in the file; empty when the
 *     file has no {@code require}
 * @param lints lint levels
 */
record ProjectConfig(
    Optional<String> file, List<String> kinds, Optional<List<Entry>> requirements, Map<String, LintLevel> lints) {

  /** The lints, in the engine's order, for the messages that list them. */
  static final List<String> LINTS = List.of("unused-import", "shadowed-kind-name", "unused-let", "gated-assert",
      "gated-deny", "duplicate-invocation", "qualified-imports", "path-matches-name");

  private static final List<String> NAMES = List.of("sigil.yaml", ".sigil.yaml", "sigil.json", ".sigil.json",
      "sigil.toml", ".sigil.toml");
  private static final List<String> TOP_KEYS = List.of("kinds", "require", "lints", "$schema");
  private static final List<String> ENTRY_KEYS = List.of("policy", "trusted", "roots");

  /**
   * One {@code require} entry.
   *
   * @param requirement the entry as the engine takes it; trusted paths relative to the working directory
   * @param where the entry's position, {@code sigil.yaml:3:5}
   */
  record Entry(Requirement requirement, String where) {}

  /** No file: no extra kinds, no requirements, default lint levels. */
  static ProjectConfig none() {
    return new ProjectConfig(Optional.empty(), List.of(), Optional.empty(), Map.of());
  }

  /**
   * The configuration the command reads: {@code explicit} when given, else the nearest file.
   *
   * @throws PolicyException if the file can't be read, isn't valid, or two files share a directory
   */
  static ProjectConfig load(Workspace workspace, Optional<String> explicit) {
    if (explicit.isPresent()) {
      return read(workspace, workspace.resolve(explicit.get()), Sources.clean(explicit.get()));
    }
    Path dir = workspace.directory().toAbsolutePath().normalize();
    for (Path at = dir; at != null; at = at.getParent()) {
      List<Path> found = new ArrayList<>();
      for (String name : NAMES) {
        if (Files.isRegularFile(at.resolve(name))) {
          found.add(at.resolve(name));
        }
      }
      if (found.size() > 1) {
        throw new PolicyException(
            found.get(0).getFileName() + " and " + found.get(1).getFileName() + " in " + display(dir, at)
                + " are both configuration files",
            "keep one of them; a command reads one configuration file, the nearest");
      }
      if (found.size() == 1) {
        return read(workspace, found.get(0), display(dir, found.get(0)));
      }
    }
    return none();
  }

  private static String display(Path workingDirectory, Path path) {
    return Sources.clean(workingDirectory.relativize(path).toString());
  }

  private static ProjectConfig read(Workspace workspace, Path path, String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    JsonFactory factory;
    Syntax syntax;
    if (lower.endsWith(".yaml") || lower.endsWith(".yml")) {
      factory = new YAMLFactory();
      syntax = Syntax.YAML;
    } else if (lower.endsWith(".json")) {
      factory = new JsonFactory();
      syntax = Syntax.JSON;
    } else if (lower.endsWith(".toml")) {
      throw new PolicyException(name + ": TOML configuration files aren't supported by svc policy",
          "write the same keys as sigil.yaml or sigil.json");
    } else {
      throw new PolicyException(name + ": a configuration file's name ends in .yaml, .yml or .json",
          "rename the file, or name another with --config");
    }
    String text;
    try {
      text = Files.readString(path);
    } catch (IOException e) {
      throw Sources.unreadable(name, e);
    }
    Node root;
    try (JsonParser parser = factory.createParser(text)) {
      root = Node.read(parser);
    } catch (JsonProcessingException e) {
      throw new PolicyException(name + " isn't valid " + syntax.label,
          "fix the syntax at the position the cause names").causedBy(e.getOriginalMessage() + at(e.getLocation()));
    } catch (IOException e) {
      throw Sources.unreadable(name, e);
    }
    Path base = workspace.directory().relativize(path.toAbsolutePath().getParent() == null
        ? workspace.directory() : path.toAbsolutePath().getParent());
    return new Reader(name, syntax, base, workspace.directory()).config(root);
  }

  private static String at(JsonLocation location) {
    return location == null ? "" : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
  }

  private enum Syntax {
    YAML("YAML"),
    JSON("JSON");

    final String label;

    Syntax(String label) {
      this.label = label;
    }

    /** Keys listed in the file's own syntax: {@code `policy:`} or {@code `"policy"`}. */
    String keys(List<String> keys) {
      List<String> shown = keys.stream().map(k -> this == YAML ? "`" + k + ":`" : "`\"" + k + "\"`").toList();
      return String.join(", ", shown.subList(0, shown.size() - 1)) + " and " + shown.get(shown.size() - 1);
    }
  }

  /** A parsed value with where it starts: a map of keys (with their positions), a list, or scalar text. */
  private record Node(Object value, int line, int column) {

    record Key(String name, int line, int column, Node value) {}

    static Node read(JsonParser parser) throws IOException {
      JsonToken token = parser.nextToken();
      if (token == null) {
        return new Node(new LinkedHashMap<String, Key>(), 1, 1);
      }
      return value(parser);
    }

    private static Node value(JsonParser parser) throws IOException {
      JsonLocation where = parser.currentTokenLocation();
      int line = where.getLineNr();
      int column = where.getColumnNr();
      JsonToken token = parser.currentToken();
      if (token == JsonToken.START_OBJECT) {
        Map<String, Key> keys = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          JsonLocation keyAt = parser.currentTokenLocation();
          String name = parser.currentName();
          parser.nextToken();
          keys.put(name, new Key(name, keyAt.getLineNr(), keyAt.getColumnNr(), value(parser)));
        }
        return new Node(keys, line, column);
      }
      if (token == JsonToken.START_ARRAY) {
        List<Node> items = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          items.add(value(parser));
        }
        return new Node(items, line, column);
      }
      return new Node(token == JsonToken.VALUE_NULL ? null : parser.getText(), line, column);
    }

    @SuppressWarnings("unchecked")
    Map<String, Key> keys() {
      return value instanceof Map<?, ?> m ? (Map<String, Key>) m : null;
    }

    @SuppressWarnings("unchecked")
    List<Node> items() {
      return value instanceof List<?> l ? (List<Node>) l : null;
    }
  }

  /** Reads the keys of one file, failing at the first problem with its position. */
  private record Reader(String name, Syntax syntax, Path base, Path workingDirectory) {

    ProjectConfig config(Node root) {
      Map<String, Node.Key> keys = root.keys();
      if (keys == null) {
        throw problem(root.line(), root.column(), "the configuration must be a mapping of keys",
            "the configuration holds " + syntax.keys(TOP_KEYS.subList(0, 3)));
      }
      List<String> kinds = List.of();
      Optional<List<Entry>> requirements = Optional.empty();
      Map<String, LintLevel> lints = Map.of();
      for (Node.Key key : keys.values()) {
        switch (key.name()) {
          case "kinds" -> kinds = strings(key, "kinds").stream().map(this::path).toList();
          case "require" -> requirements = Optional.of(entries(key));
          case "lints" -> lints = lints(key);
          case "$schema" -> { }
          default -> throw unknownKey(key, "", TOP_KEYS.subList(0, 3), "the configuration holds ");
        }
      }
      return new ProjectConfig(Optional.of(name), kinds, requirements, lints);
    }

    private List<Entry> entries(Node.Key require) {
      List<Node> items = require.value().items();
      if (items == null) {
        throw problem(require.line(), require.column(), "require must be a list of entries",
            "a require entry holds " + syntax.keys(ENTRY_KEYS));
      }
      List<Entry> entries = new ArrayList<>();
      for (int i = 0; i < items.size(); i++) {
        entries.add(entry(items.get(i), i));
      }
      return entries;
    }

    private Entry entry(Node item, int index) {
      String label = "require[" + index + "]";
      Map<String, Node.Key> keys = item.keys();
      if (keys == null) {
        throw problem(item.line(), item.column(), label + " must be a mapping",
            "a require entry holds " + syntax.keys(ENTRY_KEYS));
      }
      String policy = null;
      List<String> trusted = List.of();
      Optional<List<String>> roots = Optional.empty();
      for (Node.Key key : keys.values()) {
        switch (key.name()) {
          case "policy" -> policy = scalar(key, label + ".policy");
          case "trusted" -> trusted = strings(key, label + ".trusted").stream().map(this::path).toList();
          case "roots" -> roots = Optional.of(strings(key, label + ".roots"));
          default -> throw unknownKey(key, " in " + label, ENTRY_KEYS, "a require entry holds ");
        }
      }
      if (policy == null || policy.isEmpty()) {
        throw problem(item.line(), item.column(), label + " names no policy",
            "give the required policy's name with " + (syntax == Syntax.YAML ? "`policy:`" : "`\"policy\"`"));
      }
      String where = name + ":" + item.line() + ":" + item.column();
      for (String path : trusted) {
        if (!Files.exists(workingDirectory.resolve(path))) {
          throw new PolicyException(where + ": trusted path " + path + " doesn't exist",
              "name a file or directory that holds the required policy; paths are relative to " + name);
        }
      }
      Requirement requirement = new Requirement(policy, trusted, roots);
      return new Entry(requirement, where);
    }

    private Map<String, LintLevel> lints(Node.Key lints) {
      Map<String, Node.Key> keys = lints.value().keys();
      if (keys == null) {
        throw problem(lints.line(), lints.column(), "lints must be a mapping of lint names to levels",
            "the lints are " + String.join(", ", LINTS));
      }
      Map<String, LintLevel> levels = new TreeMap<>();
      for (Node.Key key : keys.values()) {
        if (!LINTS.contains(key.name())) {
          List<String> advice = new ArrayList<>();
          Nearest.hint(key.name(), LINTS).ifPresent(advice::add);
          advice.add("the lints are " + String.join(", ", LINTS));
          throw new PolicyException(position(key) + "unknown lint \"" + key.name() + "\"", advice, List.of(), List.of());
        }
        String level = scalar(key, "lints." + key.name());
        try {
          levels.put(key.name(), LintLevel.valueOf(level.toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
          throw new PolicyException(position(key) + "lint " + key.name() + " has no level \"" + level + "\"",
              "use off, warn or error");
        }
      }
      return levels;
    }

    private String scalar(Node.Key key, String label) {
      Object value = key.value().value();
      if (!(value instanceof String text)) {
        throw problem(key.line(), key.column(), label + " must be a string", "write it as one value");
      }
      return text;
    }

    private List<String> strings(Node.Key key, String label) {
      List<Node> items = key.value().items();
      if (items == null) {
        return List.of(scalar(key, label));
      }
      List<String> out = new ArrayList<>();
      for (Node item : items) {
        if (!(item.value() instanceof String text)) {
          throw problem(item.line(), item.column(), label + " must hold strings", "write each entry as one value");
        }
        out.add(text);
      }
      return out;
    }

    private String path(String path) {
      return Sources.clean(Path.of(path).isAbsolute() ? path : base.resolve(path).toString());
    }

    private PolicyException unknownKey(Node.Key key, String in, List<String> valid, String holds) {
      List<String> advice = new ArrayList<>();
      Nearest.hint(key.name(), valid).ifPresent(advice::add);
      advice.add(holds + syntax.keys(valid));
      return new PolicyException(position(key) + "unknown key \"" + key.name() + "\"" + in, advice, List.of(), List.of());
    }

    private String position(Node.Key key) {
      return name + ":" + key.line() + ":" + key.column() + ": ";
    }

    private PolicyException problem(int line, int column, String message, String advice) {
      return new PolicyException(name + ":" + line + ":" + column + ": " + message, advice);
    }
  }
}
