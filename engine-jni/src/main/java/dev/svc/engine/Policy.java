package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.svc.engine.internal.AbiCodec;
import java.lang.ref.Cleaner;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A policy compiled in one {@link Engine} instance, kept there under a handle until it is closed.
 * Each evaluation runs it on one input and answers the eval record; the host functions it was
 * compiled with answer its calls.
 *
 * <pre>{@code
 * try (Policy policy = engine.compile(files, CompileOptions.defaults().withPolicy("refunds.desk"))) {
 *   EvalResult result = policy.eval(Map.of("order", order));
 *   result.decision(); // Optional[approve]
 * }
 * }</pre>
 *
 * <p><b>Failures:</b> a failed evaluation (a runtime error, a conflict, a failed assert, a timeout
 * the engine caught) is a result with {@link EvalResult#error()} set and the kind's fallback as its
 * outcome, never an exception. An {@link EngineException} means the request was refused: an input
 * that doesn't fit the kind or can't be written as JSON, a closed policy. A {@link
 * StoppedException} means the instance died and every policy in it with it.
 *
 * <p><b>Lifecycle:</b> close the policy when done with it, which frees it inside the instance.
 * Closing twice does nothing, and a closed policy refuses every use with {@code policy «name» was
 * released}. A policy that becomes unreachable unclosed is released by a cleaner at its engine's
 * next call. The policy keeps its instance alive: it may outlive the {@link Engine} it came from,
 * and evaluates on after {@code engine.close()}; the instance is freed when the engine and all its
 * policies are closed.
 *
 * <p><b>Thread safety:</b> thread-safe; the evaluations of one instance run one at a time, on the
 * calling thread, and so do its host functions.
 */
public final class Policy implements AutoCloseable {

  private final Instance instance;
  private final String name;
  private final List<Diagnostic> diagnostics;
  private final long handle;
  private final Map<String, HostFunction> functions;
  private final AtomicBoolean released = new AtomicBoolean();
  private final Cleaner.Cleanable cleanable;
  private volatile Optional<ResultShape> resultShape = Optional.empty();

  private static final EvalOptions DECIDE = EvalOptions.defaults().withoutTrace();

  // The safety net for a policy nobody closes (bindings.md §7): one daemon thread for the library.
  private static final Cleaner CLEANER = Cleaner.create();

  Policy(Instance instance, Compiled compiled, Map<String, HostFunction> functions) {
    this.instance = instance;
    this.name = compiled.policy();
    this.diagnostics = List.copyOf(compiled.diagnostics());
    this.handle = compiled.handle();
    this.functions = Map.copyOf(functions);
    this.cleanable = CLEANER.register(this, new Abandon(instance, handle, released));
  }

  /**
   * Hands the handle of a policy that became unreachable unclosed to its instance, which releases it
   * at its next call. Holds no reference to the policy, or it would never become unreachable.
   */
  private record Abandon(Instance instance, long handle, AtomicBoolean released) implements Runnable {
    @Override
    public void run() {
      if (!released.getAndSet(true)) {
        instance.abandon(handle);
      }
    }
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
   * Evaluates one input, without a deadline of its own (the instance's {@link Limits#opDeadline()}
   * bounds it).
   *
   * @param input one key per input the kind declares: a {@code JsonNode}, a map, or any object
   *     Jackson serializes to such an object; an {@link java.time.Instant} or {@link
   *     java.time.OffsetDateTime} is written in RFC 3339, a {@link java.time.Duration} in Sigil's
   *     syntax ({@link Durations#format})
   * @return the eval record; a failed evaluation is a result with {@link EvalResult#error()} set
   * @throws EngineException if the input doesn't fit the kind (the engine's decoder says where),
   *     can't be written as JSON (including a NaN or infinite float), or the policy was closed
   *     ({@code policy «name» was released}); the instance works on
   * @throws StoppedException if the instance is stopped, or stops during this call: a {@link
   *     TimeoutException} past the hard deadline
   */
  public EvalResult eval(Object input) {
    return evalWith(input, EvalOptions.defaults());
  }

  /**
   * Evaluates one input for what it decides: {@link #eval(Object)} without the trace ({@link
   * EvalOptions#withoutTrace()}), so the engine writes, and this library reads, about half the
   * record. For hosts that act on the decision, reason, payload or outcome alone, such as the
   * helpers of {@link dev.svc.engine.kind.Outcome} and {@link dev.svc.engine.kind.Decision}.
   *
   * @param input one key per input the kind declares, as for {@link #eval(Object)}
   * @return the eval record, its {@link EvalResult#trace()} empty
   * @throws EngineException as {@link #eval(Object)} does
   * @throws StoppedException as {@link #eval(Object)} does
   */
  public EvalResult decide(Object input) {
    return evalWith(input, DECIDE);
  }

  /**
   * Evaluates one input under {@code options}: a timeout of its own, after which the engine ends the
   * evaluation {@code canceled} with the kind's fallback; a hard deadline at the timeout plus the
   * grace, which kills the call and stops the instance; and a fuel bound.
   *
   * @param input one key per input the kind declares, as for {@link #eval(Object)}
   * @param options the evaluation's timeout, grace and fuel
   * @return the eval record; a failed or canceled evaluation is a result with {@link
   *     EvalResult#error()} set
   * @throws EngineException if the input doesn't fit the kind or can't be written as JSON, the
   *     policy was closed, or fuel is asked of a module without fuel metering; the instance works on
   * @throws StoppedException if the instance is stopped, or stops during this call: a {@link
   *     TimeoutException} past the hard deadline, an {@link OutOfFuelException} when the fuel runs
   *     out
   */
  public EvalResult evalWith(Object input, EvalOptions options) {
    EvalResult result = AbiCodec.evalResult(instance.evaluate(evalRequest(input, options), options, functions));
    return resultShape.map(result::withShape).orElse(result);
  }

  /**
   * Evaluates one input and answers the eval record exactly as the engine wrote it (tooling spec
   * §6.2: its key order, its omissions, its numbers), for a host that passes the record on as JSON
   * without reading it, such as an HTTP server.
   *
   * @param input one key per input the kind declares, as for {@link #eval(Object)}
   * @param options the evaluation's timeout, grace and fuel
   * @return the eval record's compact UTF-8 JSON object, without the response envelope; not
   *     stamped with a {@link ResultShape}
   * @throws EngineException as {@link #evalWith(Object, EvalOptions)} does
   * @throws StoppedException as {@link #evalWith(Object, EvalOptions)} does
   */
  public byte[] evalJson(Object input, EvalOptions options) {
    return AbiCodec.body(instance.evaluate(evalRequest(input, options), options, functions));
  }

  private byte[] evalRequest(Object input, EvalOptions options) {
    Objects.requireNonNull(options, "options");
    requireOpen();
    try {
      return AbiCodec.evalRequest(handle, input, options.timeoutMillis(), options.trace());
    } catch (IllegalArgumentException e) {
      // An input Jackson can't write is the request's fault, refused before the module is asked.
      throw new EngineException(
          "the input can't be encoded as JSON: " + e.getMessage(),
          "pass a JsonNode, a Map, or an object Jackson can serialize, with one key per input the"
              + " kind declares and no NaN or infinite float (JSON has no number for them)",
          e);
    }
  }

  /**
   * Marks every later result of this policy with {@code shape} ({@link EvalResult#shape()}), for
   * the decision helpers of {@link dev.svc.engine.kind.Decision}. {@link
   * dev.svc.engine.kind.Kind#compile(Engine, List, dev.svc.engine.kind.KindCompileOptions)
   * Kind.compile} does it; do it yourself for a policy of a Java-defined kind compiled with {@link
   * Engine#compile(List, CompileOptions)}, with the kind's {@code resultShape()}.
   *
   * @param shape how the results of the policy's kind read
   * @return this policy
   */
  public Policy stampResults(ResultShape shape) {
    resultShape = Optional.of(Objects.requireNonNull(shape, "shape"));
    return this;
  }

  /**
   * This policy flattened into every decision rule and assert it can reach, as the engine
   * explained it when it compiled the policy; equal to what {@link Engine#explain(List,
   * ExplainOptions)} answers for this policy of the same files.
   *
   * @return the explanation
   * @throws EngineException if the policy was closed ({@code policy «name» was released}), or the
   *     engine answered no explanation (a bug in the engine)
   * @throws StoppedException if the instance is stopped, or stops during this call
   */
  public Explanation explain() {
    requireOpen();
    return explanations(instance.call(Requests.explain(handle), Instance.Caller.POLICY)).stream()
        .findFirst()
        .orElseThrow(
            () ->
                new EngineException(
                    "the module returned no explanation for policy " + name,
                    "this is a bug in the engine; please report it"));
  }

  /**
   * Releases the policy inside its instance and lets go of the instance, which is freed when its
   * engine and every other policy of it are closed too; later calls do nothing. Closing a policy of
   * a stopped instance, or the last holder of one, costs no call: the instance drops it whole.
   * Called inside a host function of the same engine, which can't call back into it, the release
   * waits for the engine's next call.
   *
   * @throws EngineException if the engine refuses the release (it doesn't know the handle)
   */
  @Override
  public void close() {
    if (released.getAndSet(true)) {
      return;
    }
    cleanable.clean();
    instance.closePolicy(handle);
  }

  // A closed policy's handle is gone, or belongs to a newer policy once the counter wraps.
  private void requireOpen() {
    if (released.get()) {
      throw new EngineException("policy " + name + " was released", "compile it again to evaluate it");
    }
  }

  /** The explanations an explain response answers, none when it answers none. */
  static List<Explanation> explanations(byte[] response) {
    return AbiCodec.decode(response, Explained.class).explanations();
  }

  /** The body of the explain op's answer. */
  private record Explained(@JsonProperty("explanations") List<Explanation> explanations) {

    Explained {
      explanations = explanations == null ? List.of() : List.copyOf(explanations);
    }
  }

  /** The body of the compile op's answer. */
  record Compiled(
      @JsonProperty(value = "policy", required = true) String policy,
      @JsonProperty(value = "diagnostics", required = true) List<Diagnostic> diagnostics,
      @JsonProperty(value = "handle", required = true) long handle) {}
}
