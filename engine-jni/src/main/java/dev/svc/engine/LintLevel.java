package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How a lint's findings are reported by {@link Engine#check(java.util.List, CheckOptions)}. */
public enum LintLevel {
  /** Not reported. */
  OFF,
  /** Reported as {@code warning} diagnostics. */
  WARN,
  /** Reported as {@code error} diagnostics. */
  ERROR;

  /**
   * The level's name in a request: {@code off}, {@code warn} or {@code error}.
   *
   * @return the lower-case name
   */
  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
