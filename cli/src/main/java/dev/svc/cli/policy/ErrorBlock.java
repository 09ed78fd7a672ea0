package dev.svc.cli.policy;

/**
 * The {@code Error:} block of tooling spec §1.1: the message, then "What you can do" with each
 * piece of advice, then "Caused by" with each cause, each section only when it has items.
 */
final class ErrorBlock {

  private ErrorBlock() {}

  /** The block for {@code e}, ending with a newline. */
  static String render(PolicyException e, PolicyColors theme) {
    StringBuilder out = new StringBuilder();
    out.append(theme.fail("Error:")).append(' ').append(e.getMessage()).append('\n');
    section(out, theme, "What you can do", e.advice());
    section(out, theme, "Caused by", e.causes());
    return out.toString();
  }

  private static void section(StringBuilder out, PolicyColors theme, String title, java.util.List<String> items) {
    if (items.isEmpty()) {
      return;
    }
    out.append('\n').append(theme.bold(title)).append('\n');
    for (String item : items) {
      out.append("  ").append(theme.info("•")).append(' ').append(item).append('\n');
    }
  }
}
