package dev.svc.cli.policy;

import dev.svc.engine.Engine;
import dev.svc.engine.EngineException;
import dev.svc.engine.SourceFile;
import dev.svc.engine.SvcException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One run of a policy command: where its output goes, how it is styled, in which format, and the
 * sources it read (so diagnostics quote their lines). Records go to stdout, everything else to
 * stderr.
 */
final class Console {

  /** A command's work; returns the exit status. */
  @FunctionalInterface
  interface Work {
    int run(Console console);
  }

  private final PrintWriter out;
  private final PrintWriter err;
  private final PolicyColors theme;
  private final PolicyCommand.Format format;
  private final Workspace workspace;
  private final Map<String, String> sources = new HashMap<>();

  Console(PrintWriter out, PrintWriter err, PolicyColors theme, PolicyCommand.Format format, Workspace workspace) {
    this.out = out;
    this.err = err;
    this.theme = theme;
    this.format = format;
    this.workspace = workspace;
  }

  PrintWriter out() {
    return out;
  }

  PrintWriter err() {
    return err;
  }

  PolicyColors theme() {
    return theme;
  }

  Workspace workspace() {
    return workspace;
  }

  boolean isText() {
    return format == PolicyCommand.Format.text;
  }

  /** Remembers {@code files}' text for quoting; returns them. */
  List<SourceFile> remember(List<SourceFile> files) {
    files.forEach(f -> sources.put(f.path(), f.source()));
    return files;
  }

  /** Diagnostics in the text layout, quoting the remembered sources. */
  DiagnosticText diagnosticText() {
    return new DiagnosticText(sources, theme);
  }

  /** A running engine for this command; the caller closes it. */
  static Engine engine() {
    return Engine.bundled();
  }

  /** The records of {@code json} (compact JSON) on stdout, as JSON or YAML. */
  void records(byte[] json) {
    records(new String(json, StandardCharsets.UTF_8));
  }

  /** The records of {@code json} (compact JSON) on stdout, as JSON or YAML. */
  void records(String json) {
    out.print(format == PolicyCommand.Format.yaml ? Yaml.fromJson(json) : GoJson.indent(json));
  }

  /** The summary line of a text-mode command: {@code ✓}, {@code !} or {@code ✗} and the message. */
  void summary(Outcome outcome, String message) {
    String glyph = switch (outcome) {
      case CLEAN -> theme.ok("✓");
      case WARNINGS -> theme.warn("!");
      case FAILED -> theme.fail("✗");
    };
    out.println(glyph + " " + theme.bold(message));
  }

  /** How a command ended, for its summary line. */
  enum Outcome {
    CLEAN,
    WARNINGS,
    FAILED
  }

  /**
   * Runs {@code work}, printing a failure that stops it as the {@code Error:} block (after the
   * diagnostics behind it) with exit status 1.
   */
  int guard(Work work) {
    try {
      return work.run(this);
    } catch (PolicyException e) {
      fail(e);
    } catch (EngineException e) {
      fail(new PolicyException(e.message(), e.help().isEmpty() ? List.of() : List.of(e.help()), List.of(),
          e.diagnostics()));
    } catch (SvcException e) {
      fail(new PolicyException(e.message(), e.help().isEmpty() ? List.of() : List.of(e.help()), List.of(), List.of()));
    } finally {
      out.flush();
      err.flush();
    }
    return PolicyCommand.FAILED;
  }

  private void fail(PolicyException e) {
    if (!e.diagnostics().isEmpty()) {
      err.print(diagnosticText().renderAll(e.diagnostics()) + "\n\n");
    }
    err.print(ErrorBlock.render(e, theme));
  }
}
