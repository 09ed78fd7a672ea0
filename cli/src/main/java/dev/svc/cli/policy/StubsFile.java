package dev.svc.cli.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.svc.engine.Stub;
import dev.svc.engine.StubCall;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Stubs of host functions for {@code eval} (tooling spec §7.4): a stubs object from {@code --stubs},
 * then {@code --stub NAME=VALUE} flags, each replacing an earlier stub of its function.
 */
final class StubsFile {

  private static final List<String> STUB_KEYS = List.of("returns", "error", "calls");
  private static final List<String> CALL_KEYS = List.of("args", "returns", "error");

  private StubsFile() {}

  /**
   * The stubs of {@code document} (named {@code name} in messages).
   *
   * @throws PolicyException naming the stub that isn't well formed
   */
  static SortedMap<String, Stub> read(String name, JsonNode document) {
    if (!document.isObject()) {
      throw new PolicyException(name + ": stubs must be an object", "map each host function's name to its stub");
    }
    SortedMap<String, Stub> stubs = new TreeMap<>();
    for (Map.Entry<String, JsonNode> entry : document.properties()) {
      stubs.put(entry.getKey(), stub(name, entry.getKey(), entry.getValue()));
    }
    return stubs;
  }

  /**
   * A stub from a flag {@code NAME=VALUE}: VALUE as JSON when it is JSON, else as a string.
   *
   * @throws PolicyException if the flag has no {@code =}
   */
  static Map.Entry<String, Stub> flag(String flag) {
    int eq = flag.indexOf('=');
    if (eq <= 0) {
      throw new PolicyException("--stub " + flag + " names no function", "write --stub NAME=VALUE, such as --stub now=\"2026-01-01T00:00:00Z\"");
    }
    String value = flag.substring(eq + 1);
    JsonNode node = Documents.json(value).orElse(TextNode.valueOf(value));
    return Map.entry(flag.substring(0, eq), Stub.returning(node));
  }

  private static Stub stub(String file, String function, JsonNode node) {
    String what = file + ": stub " + function;
    if (!node.isObject()) {
      throw new PolicyException(file + ": stub " + function + " must be an object with returns, error, calls",
          "a stub takes returns, error, calls");
    }
    unknownKeys(what, node, STUB_KEYS, "a stub takes returns, error, calls");
    Optional<JsonNode> returns = Optional.ofNullable(node.get("returns"));
    Optional<String> error = message(what, node.get("error"));
    if (returns.isPresent() && error.isPresent()) {
      throw new PolicyException(what + " gives both returns and error", "a call either returns a value or fails; keep one");
    }
    List<StubCall> calls = new ArrayList<>();
    JsonNode list = node.get("calls");
    if (list != null && !list.isArray()) {
      throw new PolicyException(what + ": calls must be a list", "list the calls as {args, returns} or {args, error}");
    }
    if (list != null) {
      for (int i = 0; i < list.size(); i++) {
        calls.add(call(what + ": call " + i, list.get(i)));
      }
    }
    if (returns.isEmpty() && error.isEmpty() && calls.isEmpty()) {
      throw new PolicyException(what + " gives no result", "give `returns:` for the result of every call, `error:` for a"
          + " call that fails, or `calls:` to answer particular args");
    }
    return new Stub(returns, error, calls);
  }

  private static StubCall call(String what, JsonNode node) {
    if (!node.isObject()) {
      throw new PolicyException(what + " must be an object with args and returns or error", "a call takes args, returns, error");
    }
    unknownKeys(what, node, CALL_KEYS, "a call takes args, returns, error");
    JsonNode args = node.get("args");
    if (args == null) {
      throw new PolicyException(what + " has no args", "list one value per param under args:");
    }
    if (!args.isArray()) {
      throw new PolicyException(what + ": args must be a list", "list one value per param under args:");
    }
    Optional<JsonNode> returns = Optional.ofNullable(node.get("returns"));
    Optional<String> error = message(what, node.get("error"));
    if (returns.isPresent() == error.isPresent()) {
      throw new PolicyException(what + " needs exactly one of returns and error", "a call either returns a value or fails");
    }
    List<JsonNode> values = new ArrayList<>();
    args.forEach(values::add);
    return new StubCall(values, returns, error);
  }

  private static Optional<String> message(String what, JsonNode error) {
    if (error == null) {
      return Optional.empty();
    }
    if (!error.isValueNode() || error.isNull() || error.asText().isEmpty()) {
      throw new PolicyException(what + ": error must be a message", "give the message the call fails with");
    }
    return Optional.of(error.asText());
  }

  private static void unknownKeys(String what, JsonNode node, List<String> valid, String takes) {
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!valid.contains(key)) {
        List<String> advice = new ArrayList<>();
        Nearest.hint(key, valid).ifPresent(advice::add);
        advice.add(takes);
        throw new PolicyException(what + ": unknown key \"" + key + "\"", advice, List.of(), List.of());
      }
    }
  }
}
