package dev.svc.cli.access;

import dev.svc.client.ClientException;
import dev.svc.client.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code svc generate documentation <path>} (access-server spec §11.11), hidden: every command's long
 * help in markdown, pre-order, children alphabetical, headings shifted by depth, into one file.
 */
@Command(name = "documentation", hidden = true, description = "Write the command reference as markdown.")
final class DocumentationCommand extends ClientCommand {

  @Parameters(paramLabel = "<path>", description = "The file to write.")
  Path path;

  @Option(names = {"-m", "--markdownlint-fix"}, arity = "0..1", fallbackValue = "true", paramLabel = "<bool>",
      description = "Run markdownlint-cli2 --fix on the file (output.markdownlint-fix).")
  Boolean markdownlintFix;

  @Option(names = "--front-matter", description = "Start with a YAML front matter of title and permalink.")
  boolean frontMatter;

  @Option(names = "--title", defaultValue = "CLI Reference", description = "The front matter's title (default: ${DEFAULT-VALUE}).")
  String title;

  @Option(names = "--permalink", defaultValue = "/reference/cli",
      description = "The front matter's permalink (default: ${DEFAULT-VALUE}).")
  String permalink;

  DocumentationCommand(ClientRuntime runtime) {
    super(runtime);
  }

  @Override
  int run(ClientContext context) {
    StringBuilder doc = new StringBuilder();
    if (frontMatter) {
      doc.append("---\ntitle: ").append(title).append("\npermalink: ").append(permalink).append("\n---\n\n");
    }
    append(doc, spec.root(), 0);
    try {
      Files.writeString(path, doc.toString().stripTrailing() + "\n", StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-r--r--"));
    } catch (IOException e) {
      throw new ClientException(new Problem("couldn't write `" + path + "`", List.of("check the path and its permissions"),
          List.of(e.toString())));
    }
    boolean fix = markdownlintFix != null ? markdownlintFix : context.config().output().markdownlintFix();
    if (fix) {
      lint();
    }
    if (!context.quiet()) {
      context.console().ok("documentation written to: " + path);
    }
    return 0;
  }

  private static void append(StringBuilder doc, CommandSpec command, int depth) {
    if (doc.length() > 0 && !doc.toString().endsWith("---\n\n")) {
      doc.append('\n');
    }
    doc.append(shiftHeadings(MarkdownHelp.render(command), Math.max(depth, 1)));
    command.subcommands().values().stream()
        .map(CommandLine::getCommandSpec)
        .distinct()
        .filter(c -> !c.usageMessage().hidden() && !c.name().equals("help") && !c.name().equals("completion"))
        .sorted(Comparator.comparing(CommandSpec::name))
        .forEach(child -> append(doc, child, depth + 1));
  }

  /** Adds {@code by} levels to every heading outside fenced code blocks. */
  static String shiftHeadings(String markdown, int by) {
    StringBuilder out = new StringBuilder();
    boolean fenced = false;
    for (String line : markdown.split("\n", -1)) {
      if (line.startsWith("```")) {
        fenced = !fenced;
      }
      out.append(!fenced && line.startsWith("#") ? "#".repeat(by) + line : line).append('\n');
    }
    return out.substring(0, out.length() - 1);
  }

  private void lint() {
    try {
      Process lint = new ProcessBuilder("markdownlint-cli2", "--fix", path.toString()).inheritIO().start();
      int code = lint.waitFor();
      if (code != 0) {
        throw new ClientException(Problem.of("markdownlint-cli2 --fix " + path + " exited " + code,
            "fix what it reports in the templates, or run without --markdownlint-fix"));
      }
    } catch (IOException e) {
      throw new ClientException(new Problem("couldn't run markdownlint-cli2", List.of(
          "install it (npm install -g markdownlint-cli2), or run without --markdownlint-fix"), List.of(e.toString())));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ClientException(Problem.of("markdownlint-cli2 was interrupted"));
    }
  }
}
