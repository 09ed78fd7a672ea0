package dev.svc.cli.console;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The colour themes of the user commands (access-server spec §11.9): the colours of icons, boxes and
 * help. {@link #NOTTY} and {@link #ASCII} have no colour; {@link #ASCII} also draws with ASCII only;
 * {@link #MARKDOWN} prints help as raw markdown.
 */
public enum Theme {
  /** ASCII characters, no colour. */
  ASCII("ascii", null, null, null, null, null),
  /** For dark terminals. */
  DARK("dark", "32", "36", "33", "31", "90"),
  /** The Dracula palette. */
  DRACULA("dracula", "38;2;80;250;123", "38;2;139;233;253", "38;2;241;250;140", "38;2;255;85;85", "38;2;98;114;164"),
  /** The Tokyo Night palette; the default. */
  TOKYO_NIGHT("tokyo-night", "38;2;158;206;106", "38;2;125;207;255", "38;2;224;175;104", "38;2;247;118;142",
      "38;2;86;95;137"),
  /** For light terminals. */
  LIGHT("light", "38;5;28", "38;5;25", "38;5;130", "38;5;160", "38;5;245"),
  /** No colour: forced when stdout isn't a terminal. */
  NOTTY("notty", null, null, null, null, null),
  /** Help as raw markdown, no colour. */
  MARKDOWN("markdown", null, null, null, null, null);

  private final String configName;
  private final String ok;
  private final String info;
  private final String warn;
  private final String error;
  private final String frame;

  Theme(String configName, String ok, String info, String warn, String error, String frame) {
    this.configName = configName;
    this.ok = ok;
    this.info = info;
    this.warn = warn;
    this.error = error;
    this.frame = frame;
  }

  /**
   * The theme's name in the configuration, such as {@code tokyo-night}.
   *
   * @return the name
   */
  public String configName() {
    return configName;
  }

  /**
   * The theme of a name, in any case.
   *
   * @param name the name
   * @return the theme, if the name is one
   */
  public static Optional<Theme> byName(String name) {
    String wanted = name.toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(t -> t.configName.equals(wanted)).findFirst();
  }

  /**
   * Every theme's name, in the spec's order.
   *
   * @return the names
   */
  public static List<String> names() {
    return Arrays.stream(values()).map(Theme::configName).toList();
  }

  /**
   * Whether the theme has colours at all.
   *
   * @return true for the coloured themes
   */
  public boolean coloured() {
    return ok != null;
  }

  /**
   * Whether boxes and icons use ASCII characters only.
   *
   * @return true for {@link #ASCII}
   */
  public boolean asciiOnly() {
    return this == ASCII;
  }

  /** The parts of the output a theme colours. */
  public enum Role {
    /** Success icons. */
    OK,
    /** Information icons. */
    INFO,
    /** Warning icons. */
    WARN,
    /** Error icons and messages. */
    ERROR,
    /** Box frames. */
    FRAME
  }

  /**
   * The ANSI SGR parameters of a role.
   *
   * @param role the part of the output
   * @return the parameters, such as {@code 32}, or null without colour
   */
  String sgr(Role role) {
    return switch (role) {
      case OK -> ok;
      case INFO -> info;
      case WARN -> warn;
      case ERROR -> error;
      case FRAME -> frame;
    };
  }

  /**
   * The theme's names and the advice to use one, for an unknown theme.
   *
   * @return the advice
   */
  public static String advice() {
    return "use one of: " + String.join(", ", names());
  }
}
