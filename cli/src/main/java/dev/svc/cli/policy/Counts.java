package dev.svc.cli.policy;

import java.util.ArrayList;
import java.util.List;

/** Counted nouns of the summary lines: {@code 1 file}, {@code 2 warnings}, {@code 1 error and 2 warnings}. */
final class Counts {

  private Counts() {}

  /** {@code n} and the noun in its number. */
  static String of(long n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }

  /** {@code 1 error}, {@code 2 warnings} or {@code 1 error and 2 warnings}. */
  static String problems(long errors, long warnings) {
    List<String> parts = new ArrayList<>();
    if (errors > 0) {
      parts.add(of(errors, "error", "errors"));
    }
    if (warnings > 0) {
      parts.add(of(warnings, "warning", "warnings"));
    }
    return String.join(" and ", parts);
  }
}
