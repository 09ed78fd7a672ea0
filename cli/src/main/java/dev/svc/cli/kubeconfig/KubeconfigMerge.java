package dev.svc.cli.kubeconfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.cli.files.AtomicFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Merge mode (access-server spec §7.2, decision O5): the issued cluster, user and context go into
 * the user's kubeconfig by name, every other entry stays as it was, and the context becomes the
 * current one; the content before is kept in {@link #backup()}. The context carries the extension {@value #EXTENSION} holding the server it came from
 * and the context that was current before, which sign-out restores.
 *
 * <p><b>Thread safety:</b> each change runs under the file's lock.
 */
public final class KubeconfigMerge {

  /** The name of the extension on a context svc wrote. */
  public static final String EXTENSION = "access.svc.dev/previous-context";

  private final AtomicFile file;

  /**
   * Merging into {@code file}.
   *
   * @param file the user's kubeconfig
   */
  public KubeconfigMerge(AtomicFile file) {
    this.file = file;
  }

  /**
   * The file merge mode writes (§7.2): the first path of {@code $KUBECONFIG}, else
   * {@code ~/.kube/config}.
   *
   * @param environment the environment variables
   * @param home the user's home
   * @param pathSeparator the separator of {@code $KUBECONFIG}'s list
   * @return the target file
   */
  public static Path target(Map<String, String> environment, Path home, String pathSeparator) {
    String list = environment.getOrDefault("KUBECONFIG", "");
    for (String path : list.split(Pattern.quote(pathSeparator))) {
      if (!path.isBlank()) {
        return Path.of(path);
      }
    }
    return home.resolve(".kube").resolve("config");
  }

  /**
   * What a merge did.
   *
   * @param file the kubeconfig written
   * @param context the context now current
   * @param previousContext the context current before the first sign-in, restored at sign-out
   */
  public record Merged(Path file, String context, Optional<String> previousContext) {}

  /**
   * What a removal did.
   *
   * @param file the kubeconfig
   * @param removedContexts the contexts removed, with their users
   * @param currentContext the current context afterwards, empty when none
   */
  public record Removed(Path file, List<String> removedContexts, String currentContext) {}

  /**
   * Upserts {@code issued}'s entries and makes its context the current one. Signing in again
   * overwrites the token and keeps the remembered previous context.
   *
   * @param issued the server's kubeconfig
   * @param serverUrl the server it came from
   * @return what was written
   */
  public Merged merge(IssuedKubeconfig issued, String serverUrl) {
    String[] previous = new String[1];
    file.update(old -> {
      ObjectNode doc = old.map(bytes -> KubeconfigYaml.read(bytes, "`" + file.path() + "`"))
          .orElseGet(KubeconfigYaml.YAML::createObjectNode);
      skeleton(doc);
      String current = doc.path("current-context").asText("");
      String remembered = current.equals(issued.contextName())
          ? findByName(list(doc, "contexts"), issued.contextName()).map(KubeconfigMerge::rememberedContext).orElse("")
          : current;
      previous[0] = remembered;
      ObjectNode context = issued.context().deepCopy();
      ObjectNode body = context.get("context") instanceof ObjectNode given ? given : context.putObject("context");
      ObjectNode extension = body.putArray("extensions").addObject();
      extension.put("name", EXTENSION);
      extension.putObject("extension").put("context", remembered).put("server", serverUrl);
      upsert(list(doc, "clusters"), issued.cluster().deepCopy());
      upsert(list(doc, "users"), issued.user().deepCopy());
      upsert(list(doc, "contexts"), context);
      doc.put("current-context", issued.contextName());
      return Optional.of(KubeconfigYaml.write(doc));
    }, Optional.of(backup()));
    return new Merged(file.path(), issued.contextName(), Optional.of(previous[0]).filter(s -> !s.isEmpty()));
  }

  /**
   * Removes the contexts svc wrote for {@code serverUrl} and their users (they hold the credentials),
   * keeps the cluster entries, and makes the remembered context current again when it still exists.
   * A file without such contexts is left as it is.
   *
   * @param serverUrl the server the session came from
   * @return what was removed
   */
  public Removed remove(String serverUrl) {
    List<String> removed = new ArrayList<>();
    String[] current = new String[1];
    file.update(old -> {
      if (old.isEmpty()) {
        current[0] = "";
        return Optional.empty();
      }
      ObjectNode doc = KubeconfigYaml.read(old.get(), "`" + file.path() + "`");
      current[0] = doc.path("current-context").asText("");
      ArrayNode contexts = list(doc, "contexts");
      String restore = "";
      for (Iterator<JsonNode> it = contexts.iterator(); it.hasNext(); ) {
        JsonNode context = it.next();
        Optional<JsonNode> ours = extension(context).filter(e -> e.path("server").asText("").equals(serverUrl));
        if (ours.isEmpty()) {
          continue;
        }
        String name = context.path("name").asText();
        removed.add(name);
        removeByName(list(doc, "users"), context.path("context").path("user").asText());
        it.remove();
        if (name.equals(current[0])) {
          restore = ours.get().path("context").asText("");
        }
      }
      if (removed.isEmpty()) {
        return Optional.empty();
      }
      if (removed.contains(current[0])) {
        current[0] = findByName(contexts, restore).isPresent() ? restore : "";
        doc.put("current-context", current[0]);
      }
      return Optional.of(KubeconfigYaml.write(doc));
    }, Optional.empty());
    return new Removed(file.path(), List.copyOf(removed), current[0]);
  }

  /**
   * Where the content before the last sign-in is kept (O5's backup), beside the file: the user can
   * go back to it by hand.
   *
   * @return the backup file
   */
  public Path backup() {
    return file.path().resolveSibling(file.path().getFileName() + ".svc-backup");
  }

  private static void skeleton(ObjectNode doc) {
    if (!doc.has("apiVersion")) {
      doc.put("apiVersion", "v1");
    }
    if (!doc.has("kind")) {
      doc.put("kind", "Config");
    }
    if (!doc.has("preferences")) {
      doc.putObject("preferences");
    }
  }

  private static ArrayNode list(ObjectNode doc, String field) {
    JsonNode node = doc.path(field);
    if (node instanceof ArrayNode array) {
      return array;
    }
    return doc.putArray(field);
  }

  private static void upsert(ArrayNode entries, ObjectNode entry) {
    String name = entry.path("name").asText();
    for (int i = 0; i < entries.size(); i++) {
      if (entries.get(i).path("name").asText().equals(name)) {
        entries.set(i, entry);
        return;
      }
    }
    entries.add(entry);
  }

  private static void removeByName(ArrayNode entries, String name) {
    for (Iterator<JsonNode> it = entries.iterator(); it.hasNext(); ) {
      if (it.next().path("name").asText().equals(name)) {
        it.remove();
      }
    }
  }

  private static Optional<JsonNode> findByName(ArrayNode entries, String name) {
    for (JsonNode entry : entries) {
      if (entry.path("name").asText().equals(name)) {
        return Optional.of(entry);
      }
    }
    return Optional.empty();
  }

  private static Optional<JsonNode> extension(JsonNode context) {
    for (JsonNode extension : context.path("context").path("extensions")) {
      if (extension.path("name").asText().equals(EXTENSION)) {
        return Optional.of(extension.path("extension"));
      }
    }
    return Optional.empty();
  }

  private static String rememberedContext(JsonNode context) {
    return extension(context).map(e -> e.path("context").asText("")).orElse("");
  }
}
