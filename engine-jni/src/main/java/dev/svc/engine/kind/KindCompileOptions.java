package dev.svc.engine.kind;

import dev.svc.engine.CompileOptions;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link Kind#compile(dev.svc.engine.Engine, java.util.List, KindCompileOptions)} compiles
 * besides the files: the engine's own {@link CompileOptions} (root policy, trusted files, required
 * policies, host functions), and where the kind file goes when the files don't hold it.
 *
 * <pre>{@code
 * KindCompileOptions options = KindCompileOptions.of(CompileOptions.defaults()
 *         .withPolicy("alerts.route")
 *         .withFunction("oncall_for", HostFunction.of(String.class, rota::oncallFor)))
 *     .withKindFile("kinds/alert_routing.sigil");
 * }</pre>
 *
 * <p>The host functions given here are used in addition to the kind's implementations ({@link
 * FnDecl#implement(dev.svc.engine.HostFunction)}), and in place of one of the same name.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param compile the options of the engine's compile
 * @param kindFile the path of the kind file added to the files when neither they nor the trusted
 *     files hold it; empty for the kind's own file name, {@code alert_routing.sigil} for {@code
 *     AlertRouting}
 */
public record KindCompileOptions(CompileOptions compile, Optional<String> kindFile) {

  /**
   * Checks that both parts are given.
   *
   * @param compile the options of the engine's compile
   * @param kindFile the path of an added kind file, or empty
   */
  public KindCompileOptions {
    Objects.requireNonNull(compile, "compile");
    Objects.requireNonNull(kindFile, "kindFile");
  }

  /**
   * The engine's defaults, and the kind file under its own name.
   *
   * @return the defaults
   */
  public static KindCompileOptions defaults() {
    return of(CompileOptions.defaults());
  }

  /**
   * {@code compile}, and the kind file under its own name.
   *
   * @param compile the options of the engine's compile
   * @return the options
   */
  public static KindCompileOptions of(CompileOptions compile) {
    return new KindCompileOptions(compile, Optional.empty());
  }

  /**
   * A copy with other options for the engine's compile.
   *
   * @param compile the options of the engine's compile
   * @return the new options
   */
  public KindCompileOptions withCompile(CompileOptions compile) {
    return new KindCompileOptions(compile, kindFile);
  }

  /**
   * A copy that adds the kind file under {@code path} when the files don't hold it.
   *
   * @param path the kind file's path, such as {@code kinds/alert_routing.sigil}
   * @return the new options
   */
  public KindCompileOptions withKindFile(String path) {
    return new KindCompileOptions(compile, Optional.of(Objects.requireNonNull(path, "path")));
  }
}
