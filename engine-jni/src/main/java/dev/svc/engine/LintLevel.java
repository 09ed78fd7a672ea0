package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.svc.engine.internal.GoQuote;
import java.util.Arrays;
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

  /**
   * The level a request names for lint {@code lint}, by its {@link #wireName()}, case-sensitive, as
   * the engine reads the {@code lints} of a check (module ABI §4.2): for a host that takes levels as
   * text and wants the engine's answer to a wrong one without sending it.
   *
   * @param lint the lint the level is for, to name in the error
   * @param level {@code off}, {@code warn} or {@code error}
   * @return the level
   * @throws EngineException {@code lints: «lint»: unknown level "«level»"}, as the engine words it
   */
  public static LintLevel fromWireName(String lint, String level) {
    return Arrays.stream(values())
        .filter(known -> known.wireName().equals(level))
        .findFirst()
        .orElseThrow(() -> new EngineException("lints: " + lint + ": unknown level " + GoQuote.quote(level),
            "set a lint to off, warn or error"));
  }
}
