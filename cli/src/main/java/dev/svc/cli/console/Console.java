package dev.svc.cli.console;

import dev.svc.client.Problem;
import dev.svc.cli.console.Theme.Role;
import java.io.PrintWriter;
import java.util.List;

/**
 * Writes what the user commands show: results and status lines on stdout, problems and progress on
 * stderr (access-server spec §11.1, §11.8), laid out by the theme and coloured only when allowed.
 *
 * <p><b>Thread safety:</b> not thread-safe; one command prints at a time.
 */
public final class Console {

  private static final int BOX_INDENT = 4;
  private static final int BOX_MIN_WIDTH = 40;

  private final PrintWriter out;
  private final PrintWriter err;
  private final Theme theme;
  private final boolean colour;
  private final boolean interactive;

  /**
   * A console writing to {@code out} and {@code err}.
   *
   * @param out stdout
   * @param err stderr
   * @param theme the effective theme
   * @param colour whether to colour
   * @param interactive whether progress may redraw a line (a terminal)
   */
  public Console(PrintWriter out, PrintWriter err, Theme theme, boolean colour, boolean interactive) {
    this.out = out;
    this.err = err;
    this.theme = theme;
    this.colour = colour;
    this.interactive = interactive;
  }

  /**
   * Whether stdout is an interactive terminal.
   *
   * @return true on a terminal
   */
  public boolean interactive() {
    return interactive;
  }

  /**
   * A line of result on stdout, as it is: what scripts and the shell wrapper read.
   *
   * @param line the line
   */
  public void result(String line) {
    out.println(line);
    out.flush();
  }

  /**
   * A success line on stdout: {@code ✓ <text>}.
   *
   * @param text the line
   */
  public void ok(String text) {
    result(icon(Role.OK) + " " + text);
  }

  /**
   * An information line on stdout: {@code ℹ <text>}.
   *
   * @param text the line
   */
  public void info(String text) {
    result(icon(Role.INFO) + " " + text);
  }

  /**
   * A next-step line on stdout: {@code → <text>}.
   *
   * @param text the line
   */
  public void next(String text) {
    result((theme.asciiOnly() ? "->" : "→") + " " + text);
  }

  /**
   * A box around {@code lines} on stdout, indented, at least 40 columns inside.
   *
   * @param lines the box's lines; an empty string is an empty line
   */
  public void box(List<String> lines) {
    int width = Math.max(BOX_MIN_WIDTH, lines.stream().mapToInt(String::length).max().orElse(0));
    String indent = " ".repeat(BOX_INDENT);
    boolean ascii = theme.asciiOnly();
    String horizontal = (ascii ? "-" : "─").repeat(width + 2);
    String side = paint(Role.FRAME, ascii ? "|" : "│");
    out.println(indent + paint(Role.FRAME, (ascii ? "+" : "╭") + horizontal + (ascii ? "+" : "╮")));
    for (String line : lines) {
      out.println(indent + side + " " + line + " ".repeat(width - line.length()) + " " + side);
    }
    out.println(indent + paint(Role.FRAME, (ascii ? "+" : "╰") + horizontal + (ascii ? "+" : "╯")));
    out.flush();
  }

  /**
   * The error block of §11.8 on stderr: the message, then what the user can do and the root causes,
   * each section only when it has content.
   *
   * @param problem what failed
   */
  public void problem(Problem problem) {
    err.println(icon(Role.ERROR) + " " + paint(Role.ERROR, problem.message()));
    section(theme.asciiOnly() ? "What you can do:" : "💡 What you can do:", problem.advice());
    section(theme.asciiOnly() ? "Root causes:" : "🔎 Root causes:", problem.causes());
    err.flush();
  }

  /**
   * A line on stderr, such as progress or a warning that isn't the command's result.
   *
   * @param line the line
   */
  public void note(String line) {
    err.println(line);
    err.flush();
  }

  /**
   * Redraws the progress line on stderr; on a terminal only.
   *
   * @param text the progress line
   */
  public void redraw(String text) {
    err.print("\r\033[2K" + text);
    err.flush();
  }

  /** Clears the progress line drawn by {@link #redraw}. */
  public void clearLine() {
    err.print("\r\033[2K");
    err.flush();
  }

  private void section(String heading, List<String> items) {
    if (items.isEmpty()) {
      return;
    }
    err.println();
    err.println(heading);
    for (String item : items) {
      err.println("  " + (theme.asciiOnly() ? "-" : "•") + " " + item);
    }
  }

  /**
   * The icon of a role, coloured: ✓ ok, ℹ info, ! warn, ✗ error (§11.9).
   *
   * @param role the role
   * @return the icon
   */
  public String icon(Role role) {
    String icon = switch (role) {
      case OK -> theme.asciiOnly() ? "+" : "✓";
      case INFO -> theme.asciiOnly() ? "i" : "ℹ";
      case WARN -> "!";
      case ERROR, FRAME -> theme.asciiOnly() ? "x" : "✗";
    };
    return paint(role, icon);
  }

  private String paint(Role role, String text) {
    String sgr = theme.sgr(role);
    if (!colour || sgr == null) {
      return text;
    }
    return "\033[" + sgr + "m" + text + "\033[0m";
  }
}
