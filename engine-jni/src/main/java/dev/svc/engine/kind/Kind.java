package dev.svc.engine.kind;

import dev.svc.engine.CompileOptions;
import dev.svc.engine.Diagnostic;
import dev.svc.engine.Engine;
import dev.svc.engine.EngineException;
import dev.svc.engine.HostFunction;
import dev.svc.engine.Policy;
import dev.svc.engine.ResultShape;
import dev.svc.engine.SourceFile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

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
 *
 * try (Policy policy = routing.compile(engine, List.of(policyFile))) {
 *   EvalResult result = policy.eval(Map.of("team", "payments"));
 *   // with record Channel(String channel)
 *   Optional<Channel> channel = notify.match(result, Channel.class);
 * }
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
  private final Map<String, HostFunction> functions;
  private final ResultShape resultShape;

  Kind(
      String name,
      int version,
      String schema,
      Map<String, HostFunction> functions,
      ResultShape resultShape) {
    this.name = name;
    this.version = version;
    this.schema = schema;
    this.functions = Collections.unmodifiableMap(new LinkedHashMap<>(functions));
    this.resultShape = resultShape;
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

  /**
   * The implementations of the kind's host functions ({@link FnDecl#implement(HostFunction)}), by
   * name in declaration order; a function declared without one isn't here.
   *
   * @return the implementations, unmodifiable
   */
  public Map<String, HostFunction> functions() {
    return functions;
  }

  /**
   * How the results of the kind's policies read: whether it collects all, and whether a collecting
   * kind is ranked by a precedence. {@link #compile(Engine, List, KindCompileOptions)} marks every
   * result with it.
   *
   * @return the shape
   */
  public ResultShape resultShape() {
    return resultShape;
  }

  /**
   * Compiles the root policy of {@code files} against this kind, with the default options.
   *
   * @param engine the engine to compile in
   * @param files the policies and modules; the kind file too, or not
   * @return the compiled policy, whose results read through the kind's decisions
   * @throws EngineException as {@link #compile(Engine, List, KindCompileOptions)} does
   * @throws dev.svc.engine.StoppedException if the instance is stopped, or stops during this call
   */
  public Policy compile(Engine engine, List<SourceFile> files) {
    return compile(engine, files, KindCompileOptions.defaults());
  }

  /**
   * Compiles the root policy of {@code files} against this kind. The files or the trusted files
   * may hold the kind file; when neither does, it is added before the files ({@link
   * KindCompileOptions#kindFile()}). A kind file of this kind that differs from {@link #schema()}
   * fails the compile, which catches an export gone stale. The kind's host function
   * implementations are passed along, under those of the options, and every result of the policy
   * carries the kind's {@link #resultShape()}, so the decision helpers read it right.
   *
   * @param engine the engine to compile in
   * @param files the policies and modules; the kind file too, or not
   * @param options the engine's compile options and the path of an added kind file
   * @return the compiled policy, whose results read through the kind's decisions
   * @throws EngineException {@code «path» declares kind «Name», but not as this program defines
   *     it} for a stale kind file, or as {@link Engine#compile(List, CompileOptions)} does
   * @throws dev.svc.engine.StoppedException if the instance is stopped, or stops during this call
   * @throws IllegalStateException if the engine is closed
   */
  public Policy compile(Engine engine, List<SourceFile> files, KindCompileOptions options) {
    Objects.requireNonNull(engine, "engine");
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(options, "options");
    CompileOptions compile = options.compile();
    List<SourceFile> all = filesWithKind(files, compile.trustedFiles(), options.kindFile());
    Map<String, HostFunction> implementations = new LinkedHashMap<>(functions);
    implementations.putAll(compile.functions());
    return engine.compile(all, compile.withFunctions(implementations)).stampResults(resultShape);
  }

  /**
   * The files to compile: {@code files} as given when they or the trusted files hold this kind's
   * file, else the current kind file ({@code path}, or the kind's own file name) and then {@code
   * files}. A kind file of this kind that isn't {@link #schema()} is stale.
   */
  List<SourceFile> filesWithKind(
      List<SourceFile> files, List<SourceFile> trusted, Optional<String> path) {
    boolean found = false;
    for (SourceFile file : Stream.concat(files.stream(), trusted.stream()).toList()) {
      if (Kind.declaredName(file.source()).filter(name::equals).isEmpty()) {
        continue;
      }
      if (!file.source().equals(schema)) {
        throw new EngineException(
            file.path() + " declares kind " + name + ", but not as this program defines it",
            "the file is stale: export the kind again, or drop the file and let compile add the"
                + " current one");
      }
      found = true;
    }
    if (found) {
      return files;
    }
    List<SourceFile> all = new ArrayList<>(files.size() + 1);
    all.add(path.map(this::file).orElseGet(this::file));
    all.addAll(files);
    return all;
  }

  /** {@code Kind[«name» version «v»]}. */
  @Override
  public String toString() {
    return "Kind[" + name + " version " + version + "]";
  }
}
