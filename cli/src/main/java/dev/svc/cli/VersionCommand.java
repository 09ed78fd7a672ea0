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

/** {@code svc version}: the policy engine's version record, from the engine module itself. */
@Command(name = "version", description = "Print the embedded policy engine's version record.")
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
    VersionInfo version;
    try {
      version = engineVersion();
    } catch (SvcException e) {
      spec.commandLine().getErr().println("svc: " + e.getMessage());
      return 1;
    }
    if (output == Format.json) {
      out.println(EngineJson.write(version));
    } else {
      out.printf("version:    %s%n", version.version());
      out.printf("commit:     %s%n", version.commit());
      out.printf("commitTime: %s%n", version.commitTime());
      out.printf("dirty:      %s%n", version.dirty());
      out.printf("compiler:   %s%n", version.goVersion());
      out.printf("platform:   %s%n", version.platform());
    }
    return 0;
  }

  /** {@code svc --version}: the same record, as picocli's version lines. */
  static final class Provider implements IVersionProvider {
    @Override
    public String[] getVersion() {
      VersionInfo v = engineVersion();
      return new String[] {
        "svc engine " + v.version() + " (" + v.commit() + ", " + v.goVersion() + ", " + v.platform() + ")"
      };
    }
  }

  private static VersionInfo engineVersion() {
    try (EngineModule module = EngineModule.bundled();
        Engine engine = Engine.create(module)) {
      return engine.version();
    }
  }
}
