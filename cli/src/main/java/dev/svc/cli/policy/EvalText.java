package dev.svc.cli.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The eval record for a person (tooling spec §6.2, text form): the decision and its payload, the
 * trace with {@code *} on the entries that made the outcome, then what went wrong, each with its
 * help.
 */
final class EvalText {

  private EvalText() {}

  static void print(Console console, Map<String, Object> report) {
    Theme theme = console.theme();
    String policy = JsonTree.text(report.get("policy"));
    List<Object> outcome = JsonTree.list(report.get("outcome"));
    if (report.containsKey("decision")) {
      console.out().println(theme.bold(policy + ": " + call(report)));
      JsonTree.object(report.get("payload")).forEach((field, value) ->
          console.out().println("  " + field + " = " + value(value)));
    } else {
      List<String> calls = new ArrayList<>();
      outcome.forEach(entry -> calls.add(call(JsonTree.object(entry))));
      console.out().println(theme.bold(policy + ": [" + String.join(", ", calls) + "]"));
    }
    List<Object> trace = JsonTree.list(report.get("trace"));
    console.out().println("trace: " + Counts.of(trace.size(), "candidate", "candidates"));
    for (Object item : trace) {
      Map<String, Object> entry = JsonTree.object(item);
      String mark = Boolean.TRUE.equals(entry.get("outcome")) ? theme.ok("*") : " ";
      console.out().println("  " + mark + " " + call(entry) + "  " + theme.muted(JsonTree.text(entry.get("position"))));
    }
    if (report.containsKey("error")) {
      failure(console, JsonTree.object(report.get("error")));
    }
  }

  private static void failure(Console console, Map<String, Object> error) {
    Theme theme = console.theme();
    String kind = JsonTree.text(error.get("kind"));
    String message = JsonTree.text(error.get("message"));
    switch (kind) {
      case "assertion" -> {
        for (Object item : JsonTree.list(error.get("asserts"))) {
          Map<String, Object> failed = JsonTree.object(item);
          console.out().println(theme.fail("assert " + JsonTree.text(failed.get("reason")) + " failed at "
              + JsonTree.text(failed.get("position"))));
          if (failed.containsKey("cause")) {
            console.out().println("  " + JsonTree.text(failed.get("cause")));
          }
        }
      }
      case "conflict" -> console.out().println(theme.fail("conflict: " + message));
      case "runtime" -> console.out().println(theme.fail("runtime error: " + message));
      default -> console.out().println(theme.fail(kind + ": " + message));
    }
    console.out().println("  " + theme.info("= help:") + " " + JsonTree.text(error.get("help")));
  }

  private static String call(Map<String, Object> entry) {
    return JsonTree.text(entry.get("decision")) + "(reason: " + JsonTree.text(entry.get("reason")) + ")";
  }

  /** A payload value as a Sigil constant: strings quoted, lists and maps bracketed. */
  static String value(Object value) {
    if (value instanceof String s) {
      return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
    if (value instanceof List<?> list) {
      List<String> items = new ArrayList<>();
      list.forEach(item -> items.add(value(item)));
      return "[" + String.join(", ", items) + "]";
    }
    if (value instanceof Map<?, ?> map) {
      List<String> items = new ArrayList<>();
      map.forEach((k, v) -> items.add(k + ": " + value(v)));
      return "{" + String.join(", ", items) + "}";
    }
    return value == null ? "null" : JsonTree.text(value);
  }
}
