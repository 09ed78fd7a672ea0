package dev.svc.cli.policy;

/**
 * The fixed colours of {@code svc policy}'s text output, on top of the plain text: every method
 * returns its text unchanged when colour is off, so the plain layout is the same either way (tooling
 * spec §1.1 {@code --color}). Not a user-chosen palette: the cluster user's commands have those, as
 * {@link dev.svc.cli.console.Theme} (access-server spec §11.9).
 *
 * @param color whether to colour
 */
record PolicyColors(boolean color) {

  private static final String RESET = "\u001b[0m";

  String ok(String text) {
    return paint("\u001b[32m", text);
  }

  String warn(String text) {
    return paint("\u001b[33m", text);
  }

  String fail(String text) {
    return paint("\u001b[31m", text);
  }

  String bold(String text) {
    return paint("\u001b[1m", text);
  }

  String muted(String text) {
    return paint("\u001b[2m", text);
  }

  String info(String text) {
    return paint("\u001b[36m", text);
  }

  /** {@code severity} coloured by what it is: errors red, warnings yellow. */
  String severity(String severity) {
    return severity.equals("error") ? fail(severity) : warn(severity);
  }

  private String paint(String code, String text) {
    return color && !text.isEmpty() ? code + text + RESET : text;
  }
}
