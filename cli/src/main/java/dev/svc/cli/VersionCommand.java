package dev.svc.cli;

import dev.svc.engine.Engine;
import dev.svc.engine.EngineJson;
import dev.svc.engine.EngineModule;
import dev.svc.engine.SvcException;
import dev.svc.engine.VersionInfo;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code svc version}: the three lines of spec §11.8 (svc's version, build date and commit), or
 * with {@code -o json} the embedded policy engine's version record, from the engine module itself.
 *
 * <p>The text form reads only the packaged build information, so it starts no engine and answers
 * fast.
 */
@Command(
    name = "version",
    description = "Print svc's version, build date and commit; -o json prints the policy engine's version record.")
final class VersionCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = {"-o", "--output"},
      description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
      defaultValue = "text")
  Format output;

  enum Format {
    text,
    json
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    if (output == Format.text) {
      out.print(BuildInfo.current().text());
      out.flush();
      return 0;
    }
    VersionInfo version;
    try {
      version = engineVersion();
    } catch (SvcException e) {
      spec.commandLine().getErr().println("svc: " + e.getMessage());
      return 1;
    }
    out.println(EngineJson.write(version));
    return 0;
  }

  /** {@code svc --version}: the same three lines as {@code svc version}. */
  static final class Provider implements IVersionProvider {
    @Override
    public String[] getVersion() {
      return BuildInfo.current().text().split("\n");
    }
  }

  private static VersionInfo engineVersion() {
    try (EngineModule module = EngineModule.bundled();
        Engine engine = Engine.create(module)) {
      return engine.version();
    }
  }
}
