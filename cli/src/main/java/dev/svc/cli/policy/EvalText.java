package dev.svc.cli.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The eval record for a person (tooling spec §6.2, text form): what the host acts on and its
 * payload; for a failed evaluation, the fallback, what went wrong and its help; then the trace, the
 * entries that made the outcome marked {@code *}, each with the conditions that held and its payload.
 */
final class EvalText {

  private EvalText() {}

  static void print(Console console, Map<String, Object> report) {
    PolicyColors theme = console.theme();
    String policy = JsonTree.text(report.get("policy"));
    List<Object> outcome = JsonTree.list(report.get("outcome"));
    boolean failed = report.containsKey("error");
    if (failed) {
      console.out().println(theme.bold(policy + ": the evaluation failed, the host falls back to " + outcomeText(outcome)));
    } else if (report.containsKey("decision")) {
      console.out().println(theme.bold(policy + ": " + call(report)));
      JsonTree.object(report.get("payload")).forEach((field, value) ->
          console.out().println("  " + field + " = " + value(value)));
    } else {
      console.out().println(theme.bold(policy + ": " + outcomeText(outcome)));
    }
    if (failed) {
      console.out().println();
      failure(console, JsonTree.object(report.get("error")));
    }
    List<Object> trace = JsonTree.list(report.get("trace"));
    console.out().println();
    console.out().println("trace: " + Counts.of(trace.size(), "candidate", "candidates"));
    entries(console, trace, "  ", true);
  }

  private static String outcomeText(List<Object> outcome) {
    if (outcome.isEmpty()) {
      return "no decisions";
    }
    List<String> calls = new ArrayList<>();
    outcome.forEach(entry -> calls.add(call(JsonTree.object(entry))));
    return calls.size() == 1 ? calls.get(0) : "[" + String.join(", ", calls) + "]";
  }

  private static void failure(Console console, Map<String, Object> error) {
    PolicyColors theme = console.theme();
    String message = JsonTree.text(error.get("message"));
    switch (JsonTree.text(error.get("kind"))) {
      case "assertion" -> {
        for (Object item : JsonTree.list(error.get("asserts"))) {
          Map<String, Object> failed = JsonTree.object(item);
          console.out().println(theme.fail("assert " + JsonTree.text(failed.get("reason")) + " failed at "
              + JsonTree.text(failed.get("position"))));
          if (failed.containsKey("cause")) {
            console.out().println("  " + JsonTree.text(failed.get("cause")));
          }
          if (failed.containsKey("outcome")) {
            console.out().println("  the outcome it read:");
            entries(console, JsonTree.list(failed.get("outcome")), "    ", false);
          }
        }
      }
      case "conflict" -> {
        console.out().println(theme.fail("conflict: " + message));
        entries(console, JsonTree.list(error.get("candidates")), "    ", false);
      }
      case "runtime" -> console.out().println(theme.fail("runtime error: " + message));
      default -> console.out().println(theme.fail(message));
    }
    console.out().println("  " + theme.info("= help:") + " " + JsonTree.text(error.get("help")));
  }

  // Entries with their calls padded to one column, then the conditions that held and the payload.
  private static void entries(Console console, List<Object> entries, String indent, boolean marked) {
    PolicyColors theme = console.theme();
    int width = entries.stream().mapToInt(e -> call(JsonTree.object(e)).length()).max().orElse(0);
    for (Object item : entries) {
      Map<String, Object> entry = JsonTree.object(item);
      String mark = !marked ? "" : Boolean.TRUE.equals(entry.get("outcome")) ? theme.ok("*") + " " : "  ";
      String call = call(entry);
      console.out().println(indent + mark + call + " ".repeat(width - call.length() + 2)
          + theme.muted(JsonTree.text(entry.get("position"))));
      String details = indent + (marked ? "    " : "  ");
      for (Object condition : JsonTree.list(entry.get("conditions"))) {
        console.out().println(details + "when " + JsonTree.text(condition));
      }
      JsonTree.object(entry.get("payload")).forEach((field, value) ->
          console.out().println(details + field + " = " + value(value)));
    }
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
