package dev.svc.cli.kubeconfig;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The shells the client writes statements for (access-server spec §11.4), and how to tell which one
 * the user runs.
 */
public enum Shell {
  /** GNU bash; also the fallback. */
  BASH("bash"),
  /** Z shell. */
  ZSH("zsh"),
  /** fish. */
  FISH("fish"),
  /** PowerShell. */
  POWERSHELL("powershell");

  private final String shellName;

  Shell(String shellName) {
    this.shellName = shellName;
  }

  /**
   * The shell's name, as {@code generate integration} takes it.
   *
   * @return the name, such as {@code bash}
   */
  public String shellName() {
    return shellName;
  }

  /**
   * The shell of a name, in any case.
   *
   * @param name the name
   * @return the shell, if the name is one
   */
  public static Optional<Shell> byName(String name) {
    for (Shell shell : values()) {
      if (shell.shellName.equals(name.toLowerCase(Locale.ROOT))) {
        return Optional.of(shell);
      }
    }
    return Optional.empty();
  }

  /**
   * The user's shell (§11.4): PowerShell on Windows; else the base name of {@code $SHELL} when it is
   * bash, zsh or fish; else PowerShell, fish, zsh or bash by the variable each sets; else bash.
   *
   * @param osName the {@code os.name} property
   * @param environment the environment variables
   * @return the shell
   */
  public static Shell detect(String osName, Map<String, String> environment) {
    if (osName.toLowerCase(Locale.ROOT).startsWith("windows")) {
      return POWERSHELL;
    }
    String login = environment.getOrDefault("SHELL", "");
    String base = login.substring(login.lastIndexOf('/') + 1);
    for (Shell shell : new Shell[] {BASH, ZSH, FISH}) {
      if (shell.shellName.equals(base)) {
        return shell;
      }
    }
    if (environment.containsKey("POWERSHELL_DISTRIBUTION_CHANNEL")) {
      return POWERSHELL;
    }
    if (environment.containsKey("FISH_VERSION")) {
      return FISH;
    }
    if (environment.containsKey("ZSH_VERSION")) {
      return ZSH;
    }
    return BASH;
  }

  /**
   * The statement that points {@code KUBECONFIG} at {@code file} in this shell, with the path
   * quoted so spaces, quotes and {@code $} stay literal (deviation D22).
   *
   * @param file the kubeconfig
   * @return the statement, one line
   */
  public String exportStatement(Path file) {
    String path = file.toString();
    return switch (this) {
      case BASH, ZSH -> "export KUBECONFIG=" + singleQuoted(path);
      case FISH -> "set -gx KUBECONFIG " + singleQuoted(path.replace("\\", "\\\\"));
      case POWERSHELL -> "$env:KUBECONFIG = \"" + path.replace("`", "``").replace("\"", "`\"").replace("$", "`$") + "\"";
    };
  }

  private static String singleQuoted(String text) {
    return "'" + text.replace("'", "'\\''") + "'";
  }
}
