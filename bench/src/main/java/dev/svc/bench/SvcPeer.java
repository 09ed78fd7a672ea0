package dev.svc.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.engine.CompileOptions;
import dev.svc.engine.Engine;
import dev.svc.engine.EngineModule;
import dev.svc.engine.EvalOptions;
import dev.svc.engine.EvalResult;
import dev.svc.engine.Policy;
import dev.svc.engine.SourceFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * svc: {@code access.main} compiled from conf/policies, evaluated through JNI, answering the whole
 * eval record, or without its trace ({@link EvalOptions#withoutTrace()}) as a host that wants only
 * the decision asks for it.
 */
final class SvcPeer implements AccessPeer<JsonNode> {

  /** The example policies, relative to the repository root scripts/bench runs in. */
  private static final Path POLICIES = Path.of("conf", "policies");

  private final ObjectMapper json = new ObjectMapper();
  private final EngineModule module;
  private final Engine engine;
  private final Policy policy;
  private final EvalOptions options;

  /** The whole record, trace included. */
  SvcPeer() {
    this(EvalOptions.defaults());
  }

  /** The record without its trace. */
  static SvcPeer decisionOnly() {
    return new SvcPeer(EvalOptions.defaults().withoutTrace());
  }

  private SvcPeer(EvalOptions options) {
    this.options = options;
    List<SourceFile> files = files();
    module = EngineModule.bundled();
    engine = Engine.create(module);
    policy = engine.compile(files, CompileOptions.defaults().withPolicy("access.main"));
  }

  /** The kind and the policy of {@code access.main}, read from conf/policies. */
  static List<SourceFile> files() {
    return List.of(source("kind.sigil"), source("access/main.sigil"));
  }

  private static SourceFile source(String path) {
    Path file = POLICIES.resolve(path);
    try {
      return SourceFile.of(path, Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "can't read " + file.toAbsolutePath() + ": run the benchmark from the repository root, as scripts/bench does", e);
    }
  }

  @Override
  public JsonNode prepare(AccessRequest request) {
    try {
      return json.readTree(request.inputJson());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public Object decide(JsonNode input) {
    return policy.evalWith(input, options);
  }

  @Override
  public boolean allows(Object answer) {
    return ((EvalResult) answer).decision().orElse("").equals("allow");
  }

  @Override
  public void close() {
    policy.close();
    engine.close();
    module.close();
  }
}
