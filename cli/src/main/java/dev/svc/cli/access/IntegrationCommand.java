package dev.svc.cli.access;

import dev.svc.cli.kubeconfig.Shell;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code svc generate integration <shell>} (access-server spec §11.10, deviation D23): a wrapper
 * function {@code svc} that evaluates what sign-in prints, only when it succeeded, and unsets
 * {@code KUBECONFIG} after sign-out. bash and zsh share one script.
 */
@Command(name = "integration", description = "Print the shell integration for bash, zsh, fish or powershell.")
final class IntegrationCommand extends ClientCommand {

  @Parameters(paramLabel = "<shell>", completionCandidates = ShellNames.class,
      description = "The shell: ${COMPLETION-CANDIDATES}.")
  String shellName;

  /** Completion candidates: the shells. */
  static final class ShellNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Arrays.stream(Shell.values()).map(Shell::shellName).iterator();
    }
  }

  IntegrationCommand(ClientRuntime runtime) {
    super(runtime);
  }

  @Override
  int run(ClientContext context) {
    Shell shell = Shell.byName(shellName).orElse(null);
    if (shell == null) {
      context.console().note("Unsupported shell: " + shellName);
      return USAGE;
    }
    context.console().result(script(shell).stripTrailing());
    return 0;
  }

  /** The integration script of {@code shell}. */
  static String script(Shell shell) {
    String resource = switch (shell) {
      case BASH, ZSH -> "bash.sh";
      case FISH -> "fish.fish";
      case POWERSHELL -> "powershell.ps1";
    };
    try (InputStream in = IntegrationCommand.class.getResourceAsStream("integration/" + resource)) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return text.replace("{{shell}}", shell.shellName()).replace("{{rcfile}}", shell == Shell.ZSH ? "~/.zshrc" : "~/.bashrc");
    } catch (IOException e) {
      throw new UncheckedIOException("the integration scripts are part of svc's jar", e);
    }
  }

}
