package dev.svc.engine;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.engine.internal.AbiCodec;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The request of each op (module ABI §4) as the bindings write it (bindings.md §6): options that
 * are empty or unset are left out rather than sent as empty lists, empty objects or nulls, so the
 * default options of an op make a request of its files alone.
 */
final class Requests {

  private Requests() {}

  /** {@code {"op":"format","source":…,"path":…}}. */
  static ObjectNode format(String source, FormatOptions options) {
    ObjectNode request = op("format").put("source", source);
    options.path().ifPresent(path -> request.put("path", path));
    return request;
  }

  /** {@code {"op":"check","files":…}} and the options that are set. */
  static ObjectNode check(List<SourceFile> files, CheckOptions options) {
    ObjectNode request = bundle("check", files, options.trustedFiles());
    putIfAny(request, "policies", options.policies());
    if (!options.requirements().isEmpty()) {
      ArrayNode require = request.putArray("require");
      for (Requirement r : options.requirements()) {
        ObjectNode entry = require.addObject().put("policy", r.policy());
        putIfAny(entry, "trusted", r.trusted());
        r.roots().ifPresent(roots -> putIfAny(entry, "roots", roots));
      }
    }
    // Sorted, so that equal options make equal requests.
    putIfAny(request, "lints", new TreeMap<>(options.lints()));
    return request;
  }

  /** {@code {"op":"test","test_files":…}} and the files and options that are set. */
  static ObjectNode test(List<SourceFile> files, List<SourceFile> testFiles, TestOptions options) {
    ObjectNode request = op("test");
    putIfAny(request, "files", files);
    putIfAny(request, "trusted_files", options.trustedFiles());
    putIfAny(request, "test_files", testFiles);
    putIfAny(request, "data_files", options.dataFiles());
    options.run().ifPresent(run -> request.put("run", run));
    return request;
  }

  /**
   * {@code {"op":"compile","files":…}} and the options that are set; the host functions go by name,
   * sorted, and the stubs by host function name.
   */
  static ObjectNode compile(List<SourceFile> files, CompileOptions options) {
    ObjectNode request = bundle("compile", files, options.trustedFiles());
    options.policy().ifPresent(p -> request.put("policy", p));
    putIfAny(request, "require", options.required());
    putIfAny(request, "functions", options.functions().keySet());
    if (!options.stubs().isEmpty()) {
      ObjectNode stubs = request.putObject("stubs");
      options.stubs().forEach((function, stub) -> stubs.set(function, stub.toJson()));
    }
    return request;
  }

  /** {@code {"op":"explain","files":…}} and the options that are set. */
  static ObjectNode explain(List<SourceFile> files, ExplainOptions options) {
    ObjectNode request = bundle("explain", files, options.trustedFiles());
    options.policy().ifPresent(p -> request.put("policy", p));
    return request;
  }

  /** {@code {"op":"explain","handle":…}}: the explanation of a compiled policy. */
  static ObjectNode explain(long handle) {
    return op("explain").put("handle", handle);
  }

  /** {@code {"op":"release","handle":…}}. */
  static ObjectNode release(long handle) {
    return op("release").put("handle", handle);
  }

  // The files always go, even none: the engine then says the request holds no files.
  private static ObjectNode bundle(String op, List<SourceFile> files, List<SourceFile> trusted) {
    ObjectNode request = op(op);
    request.set("files", AbiCodec.MAPPER.valueToTree(files));
    putIfAny(request, "trusted_files", trusted);
    return request;
  }

  private static ObjectNode op(String op) {
    return AbiCodec.MAPPER.createObjectNode().put("op", op);
  }

  private static void putIfAny(ObjectNode request, String field, Collection<?> values) {
    if (!values.isEmpty()) {
      request.set(field, AbiCodec.MAPPER.valueToTree(values));
    }
  }

  private static void putIfAny(ObjectNode request, String field, Map<?, ?> values) {
    if (!values.isEmpty()) {
      request.set(field, AbiCodec.MAPPER.valueToTree(values));
    }
  }
}
