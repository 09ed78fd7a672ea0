package dev.svc.engine.kind;

import dev.svc.engine.Diagnostic;
import dev.svc.engine.Engine;
import dev.svc.engine.SourceFile;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A kind defined in Java: the contract policies are written against, with its inputs, host
 * functions, decisions and resolution rules. {@link #schema()} is the kind file, byte for byte the
 * canonical text the engine prints for the same kind, so a repository can check it in and other
 * tools can check policies against it.
 *
 * <pre>{@code
 * Decision notify =
 *     Decision.of("notify", "routine", "unrouted").field("channel", Type.STRING, "#alerts");
 * Kind routing =
 *     Kind.builder("Routing")
 *         .version(1)
 *         .input("team", Type.STRING)
 *         .decisions(notify)
 *         .defaultOutcome(notify.reason("unrouted"))
 *         .build();
 * routing.file();   // routing.sigil, holding the kind file
 * }</pre>
 *
 * <p>Build a kind once, at start-up: {@link KindBuilder#build()} reports every problem of the
 * definition at once, so a bad kind stops the program before any policy runs.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class Kind {

  private final String name;
  private final int version;
  private final String schema;

  Kind(String name, int version, String schema) {
    this.name = name;
    this.version = version;
    this.schema = schema;
  }

  /**
   * Starts defining a kind.
   *
   * @param name the kind's name, an identifier such as {@code AlertRouting}
   * @return a builder for the kind
   */
  public static KindBuilder builder(String name) {
    return new KindBuilder(name);
  }

  /**
   * The name of the kind a source declares, when the source is a kind file: after blank space and
   * whole {@code //} comment lines it starts {@code kind «Name» version}.
   *
   * @param source a file's text
   * @return the kind's name, or empty when the source isn't a kind file
   */
  public static Optional<String> declaredName(String source) {
    return KindFiles.declaredName(Objects.requireNonNull(source, "source"));
  }

  /**
   * The kind's name.
   *
   * @return the name, such as {@code AlertRouting}
   */
  public String name() {
    return name;
  }

  /**
   * The contract's version.
   *
   * @return the version, from 1
   */
  public int version() {
    return version;
  }

  /**
   * The kind file: the kind in canonical form, ending in one newline.
   *
   * @return the kind file's text
   */
  public String schema() {
    return schema;
  }

  /**
   * The kind file under its usual name: the kind's name in snake case, {@code alert_routing.sigil}
   * for {@code AlertRouting}.
   *
   * @return the kind file
   */
  public SourceFile file() {
    return file(KindFiles.snakeCase(name) + ".sigil");
  }

  /**
   * The kind file under {@code path}.
   *
   * @param path the file's path, such as {@code kinds/alert_routing.sigil}
   * @return the kind file
   * @throws IllegalArgumentException if the path is empty
   */
  public SourceFile file(String path) {
    return SourceFile.of(path, schema);
  }

  /**
   * Checks the kind file with the engine, which knows the rules the builder leaves to it, such as
   * keywords used as names, names that collide, or an enum as a map value.
   *
   * @param engine the engine to check with
   * @return the engine's diagnostics; empty when the kind is sound
   * @throws dev.svc.engine.SvcException as {@link Engine#check(List)} does
   */
  public List<Diagnostic> check(Engine engine) {
    return engine.check(List.of(file()));
  }

  /** {@code Kind[«name» version «v»]}. */
  @Override
  public String toString() {
    return "Kind[" + name + " version " + version + "]";
  }
}
