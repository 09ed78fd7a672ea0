package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.engine.internal.AbiCodec;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A policy compiled in one {@link Engine} instance, kept there under a handle until it is closed.
 *
 * <pre>{@code
 * try (Policy policy = engine.compile(files, CompileOptions.defaults().withPolicy("refunds.desk"))) {
 *   EvalResult result = policy.eval(Map.of("order", order));
 *   result.decision(); // Optional[approve]
 * }
 * }</pre>
 *
 * <p><b>Thread safety:</b> thread-safe; evaluations of one instance run one at a time.
 */
public final class Policy implements AutoCloseable {

  private final Engine engine;
  private final String name;
  private final List<Diagnostic> diagnostics;
  private final long handle;
  private final AtomicBoolean released = new AtomicBoolean();

  Policy(Engine engine, String name, List<Diagnostic> diagnostics, long handle) {
    this.engine = engine;
    this.name = name;
    this.diagnostics = List.copyOf(diagnostics);
    this.handle = handle;
  }

  /**
   * The root policy's name.
   *
   * @return the name in its header
   */
  public String name() {
    return name;
  }

  /**
   * The problems of documents in the files that this policy doesn't use: they didn't stop it.
   *
   * @return the diagnostics, sorted by file and position
   */
  public List<Diagnostic> diagnostics() {
    return diagnostics;
  }

  /**
   * The handle the engine keeps this policy under: never 0.
   *
   * @return the handle, an unsigned 32-bit number
   */
  public long handle() {
    return handle;
  }

  /**
   * Evaluates one input.
   *
   * @param input one key per input the kind declares: a {@code JsonNode}, a map, or any object
   *     Jackson serializes to such an object
   * @return the eval record; a failed evaluation is a result with {@link EvalResult#error()} set
   * @throws EngineException if the input doesn't fit the kind, or the policy was closed
   * @throws StoppedException if the instance is stopped, or stops during this call
   */
  public EvalResult eval(Object input) {
    return evalWith(input, EvalOptions.defaults());
  }

  /**
   * Evaluates one input with a deadline of its own.
   *
   * @param input one key per input the kind declares
   * @param options the evaluation's timeout
   * @return the eval record
   * @throws EngineException if the input doesn't fit the kind, or the policy was closed
   * @throws StoppedException if the instance is stopped, or stops during this call
   */
  public EvalResult evalWith(Object input, EvalOptions options) {
    Objects.requireNonNull(options, "options");
    return engine.evaluate(AbiCodec.evalRequest(handle, input, options.timeoutMillis()), options);
  }

  /**
   * Releases the handle; later calls do nothing. A stopped or closed engine has dropped it already.
   */
  @Override
  public void close() {
    if (released.getAndSet(true)) {
      return;
    }
    ObjectNode request =
        AbiCodec.MAPPER.createObjectNode().put("op", "release").put("handle", handle);
    engine.releaseQuietly(AbiCodec.encode(request));
  }

  /** The body of the compile op's answer. */
  record Compiled(
      @JsonProperty(value = "policy", required = true) String policy,
      @JsonProperty(value = "diagnostics", required = true) List<Diagnostic> diagnostics,
      @JsonProperty(value = "handle", required = true) long handle) {}
}
