package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.engine.Instance.Caller;
import dev.svc.engine.internal.AbiCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One running instance of the engine module: its own memory, its own compiled policies. Start it
 * from a shared {@link EngineModule}; each operation of the engine is one method here.
 *
 * <pre>{@code
 * try (EngineModule module = EngineModule.bundled(); Engine engine = Engine.create(module)) {
 *   System.out.println(engine.version().version());
 * }
 * }</pre>
 *
 * <p><b>Failures:</b> an {@link EngineException} means the engine refused the request and the
 * instance works on. A {@link StoppedException} means the module trapped, exited, ran past a hard
 * deadline ({@link TimeoutException}) or out of fuel ({@link OutOfFuelException}): the instance is
 * dead, every later call throws the same error without entering the module ({@link #stopped()}
 * says so without a call), and a new one must be built. Problems found in documents (diagnostics,
 * failed evaluations, failing test cases) are results, not exceptions.
 *
 * <p><b>Lifecycle:</b> close the engine when done. Its policies keep the instance alive, so a policy
 * may outlive the engine it came from: closing the engine ends the engine's own operations, and the
 * instance's memory is freed once the engine and every policy compiled in it are closed.
 *
 * <p><b>Calling thread:</b> any thread. The module runs on the calling thread's native stack when
 * enough of it is left (about 768 KiB; a default 1 MiB Java thread has that). A call from a thread
 * with less, such as one created with a small stack size, runs on this instance's helper thread
 * {@code svc-engine-stack} with an 8 MiB stack while the caller waits: it behaves the same and costs
 * a thread hand-off per call. The helper starts on first need and ends when the engine is closed.
 *
 * <p><b>Thread safety:</b> thread-safe; calls on one instance run one at a time (other threads wait).
 * A host function can't call back into the instance that runs it.
 */
public final class Engine implements AutoCloseable {

  private static final byte[] VERSION_REQUEST = bytes("{\"op\":\"version\"}");

  private final Instance instance;

  private Engine(Instance instance) {
    this.instance = instance;
  }

  /**
   * Starts an instance of the engine module this library ships ({@link EngineModule#bundled()}), with the
   * default {@link Limits}: the shortest way to an engine. The instance owns its module, which goes
   * when the instance is closed; an application that starts several instances shares one {@link
   * EngineModule} instead and starts each with {@link #create(EngineModule)}.
   *
   * @return the running instance; the caller closes it
   * @throws EngineException if the native libraries can't be loaded on this platform, or this copy of
   *     the library holds no engine module
   * @throws StoppedException if the module trapped or exited while starting (with its stderr)
   */
  public static Engine bundled() {
    try (EngineModule module = EngineModule.bundled()) {
      return create(module);
    }
  }

  /**
   * Starts an instance of {@code module} with the default {@link Limits}; see
   * {@link #create(EngineModule, Limits)}.
   *
   * @param module the compiled engine module; it stays alive until this instance is closed
   * @return the running instance; the caller closes it
   * @throws StoppedException if the module trapped or exited while starting (with its stderr)
   * @throws EngineException if the module speaks another ABI version than {@link EngineModule#ABI_VERSION}
   * @throws IllegalStateException if {@code module} is closed
   */
  public static Engine create(EngineModule module) {
    return create(module, Limits.defaults());
  }

  /**
   * Starts an instance of {@code module}: instantiates it, runs its start function and checks that
   * it speaks this library's ABI version ({@link EngineModule#ABI_VERSION}). Takes microseconds: the
   * expensive compile happened when the module was loaded.
   *
   * @param module the compiled engine module; it stays alive until this instance is closed
   * @param limits the bounds of every call on the instance
   * @return the running instance; the caller closes it
   * @throws StoppedException if the module trapped or exited while starting (with its stderr), for
   *     example because {@link Limits#maxMemory()} is below what it needs to start
   * @throws EngineException if the module speaks another ABI version than {@link EngineModule#ABI_VERSION}
   * @throws IllegalStateException if {@code module} is closed
   */
  public static Engine create(EngineModule module, Limits limits) {
    return create(module, limits, Isolation.IN_PROCESS);
  }

  /**
   * Starts an instance of {@code module} as {@link #create(EngineModule, Limits)} does, where
   * {@code isolation} says: in this JVM, or in an engine host process of its own, where a native
   * crash, a call blocked past its hard deadline or native memory past its cap stops only this
   * instance (a {@link StoppedException} saying how the process died). Same operations, same errors.
   *
   * @param module the compiled engine module; it stays alive until this instance is closed
   * @param limits the bounds of every call on the instance; with {@link Isolation#PROCESS},
   *     {@link Limits#maxMemory()} also bounds the host's native memory (plus a headroom)
   * @param isolation where the instance runs
   * @return the running instance; the caller closes it
   * @throws StoppedException if the module trapped or exited while starting (with its stderr), or
   *     its host process could not be started or died while starting
   * @throws EngineException if the module speaks another ABI version than {@link EngineModule#ABI_VERSION}
   * @throws IllegalStateException if {@code module} is closed
   */
  public static Engine create(EngineModule module, Limits limits, Isolation isolation) {
    Objects.requireNonNull(module, "module");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(isolation, "isolation");
    return new Engine(Instance.start(module, limits, isolation));
  }

  /**
   * What the module reports about its own build.
   *
   * @return the module's version record
   * @throws StoppedException if the instance is stopped, or stops during this call: a
   *     {@link TimeoutException} past {@link Limits#opDeadline()}, a plain {@code StoppedException}
   *     when the module trapped or exited
   * @throws IllegalStateException if the engine is closed
   */
  public VersionInfo version() {
    return AbiCodec.decode(roundTrip(VERSION_REQUEST), VersionInfo.class);
  }
  /**
   * The module's version record exactly as it wrote it (tooling spec §8: its key order), for a tool
   * that prints the record as JSON.
   *
   * @return the record's compact UTF-8 JSON object
   * @throws StoppedException as {@link #version()} does
   * @throws IllegalStateException if the engine is closed
   */
  public byte[] versionJson() {
    return AbiCodec.body(roundTrip(VERSION_REQUEST));
  }


  /**
   * {@code source} in the canonical style of {@code sigil fmt}: every comment kept, the same program.
   * Equal to {@code source} when it was canonical already.
   *
   * @param source the text of one Sigil file
   * @return the formatted text
   * @throws EngineException if the source doesn't parse ({@code <stdin> has syntax errors}, with the
   *     syntax errors as {@link EngineException#diagnostics()}); the instance works on
   * @throws StoppedException if the instance is stopped, or stops during this call: a
   *     {@link TimeoutException} past {@link Limits#opDeadline()}, a plain {@code StoppedException}
   *     when the module trapped or exited
   * @throws IllegalStateException if the engine is closed
   */
  public String format(String source) {
    return format(source, FormatOptions.defaults());
  }

  /**
   * {@code source} in the canonical style of {@code sigil fmt}, as {@link #format(String)}; the
   * diagnostics of a source that doesn't parse name the file {@code options.path()}.
   *
   * @param source the text of one Sigil file
   * @param options how to format it
   * @return the formatted text
   * @throws EngineException if the source doesn't parse ({@code «path» has syntax errors}, with the
   *     syntax errors as {@link EngineException#diagnostics()}); the instance works on
   * @throws StoppedException if the instance is stopped, or stops during this call: a
   *     {@link TimeoutException} past {@link Limits#opDeadline()}, a plain {@code StoppedException}
   *     when the module trapped or exited
   * @throws IllegalStateException if the engine is closed
   */
  public String format(String source, FormatOptions options) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(options, "options");
    return AbiCodec.decode(roundTrip(Requests.format(source, options)), Formatted.class).source();
  }

  /**
   * Every problem of {@code files} as {@code sigil check} reports them: syntax errors, kind
   * documents that break a rule, names defined twice, type errors of every policy and module against
   * its kind, and, when nothing is wrong, the lint findings. Finding problems is a result, not an
   * exception.
   *
   * @param files the kind documents, policies and modules, in the order a command line would name
   *     them
   * @return the diagnostics, errors and warnings alike, sorted by file and position; empty when
   *     clean
   * @throws EngineException if the request can't be checked: no files, a path given twice with two
   *     sources; the instance works on
   * @throws StoppedException if the instance is stopped, or stops during this call
   * @throws IllegalStateException if the engine is closed
   */
  public List<Diagnostic> check(List<SourceFile> files) {
    return check(files, CheckOptions.defaults());
  }

  /**
   * Every problem of {@code files}, as {@link #check(List)}, with trusted files, narrowed to some
   * policies, with lints at other levels.
   *
   * @param files the kind documents, policies and modules
   * @param options trusted files, policy patterns, required policies and lint levels
   * @return the diagnostics, errors and warnings alike, sorted by file and position; empty when
   *     clean
   * @throws EngineException if the request can't be checked: no files, a path given twice with two
   *     sources or among both lists, an unknown lint or level, a pattern matching no policy, a
   *     requirement that can't be enforced as written (its trusted path holds no file, its policy
   *     isn't found or not where it must come from, its roots match nothing); the instance works on
   * @throws StoppedException if the instance is stopped, or stops during this call
   * @throws IllegalStateException if the engine is closed
   */
  public List<Diagnostic> check(List<SourceFile> files, CheckOptions options) {
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(options, "options");
    return AbiCodec.decode(roundTrip(Requests.check(files, options)), Checked.class).diagnostics();
  }
  /**
   * {@link #check(List, CheckOptions)}, answering the diagnostics exactly as the engine wrote them
   * (tooling spec §1.2: key order, omissions, Go escaping), for a tool that prints the records as
   * JSON without reading them.
   *
   * @param files the kind documents, policies and modules
   * @param options trusted files, policy patterns, required policies and lint levels
   * @return the compact UTF-8 JSON list of Diagnostic records; {@code []} when clean
   * @throws EngineException as {@link #check(List, CheckOptions)} does
   * @throws StoppedException if the instance is stopped, or stops during this call
   * @throws IllegalStateException if the engine is closed
   */
  public byte[] checkJson(List<SourceFile> files, CheckOptions options) {
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(options, "options");
    return AbiCodec.bodyField(roundTrip(Requests.check(files, options)), "diagnostics");
  }


  /** The body of the check op's answer. */
  private record Checked(
      @JsonProperty(value = "diagnostics", required = true) List<Diagnostic> diagnostics) {

    Checked {
      diagnostics = List.copyOf(diagnostics);
    }
  }

  /**
   * Runs test files as {@code sigil test} does: every test file ({@code *_test.yaml} or {@code
   * *_test.yml}) names a policy of {@code files} and lists cases, each an input and what evaluating
   * the policy on it must give. Host functions are answered only by the test files' stubs. A test
   * file that can't run and a case that fails are results, not exceptions.
   *
   * @param files the kind documents, policies and modules; may be empty (every test file then
   *     reports that its policy is missing)
   * @param testFiles the test files; at least one
   * @param options data files for {@code input_file}, the cases to run, trusted files
   * @return one result per test file, sorted by path
   * @throws EngineException if the request can't be run: no test files, a test file not named like
   *     one, a file without a path or with two sources under one path (in any of the four lists),
   *     a path among both the files and the trusted files, a {@code run} that isn't a regular
   *     expression; the instance works on
   * @throws StoppedException if the instance is stopped, or stops during this call
   * @throws IllegalStateException if the engine is closed
   */
  public List<TestResult> test(List<SourceFile> files, List<SourceFile> testFiles, TestOptions options) {
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(testFiles, "testFiles");
    Objects.requireNonNull(options, "options");
    return AbiCodec.decode(roundTrip(Requests.test(files, testFiles, options)), Tested.class).results();
  }
  /**
   * {@link #test(List, List, TestOptions)}, answering the results exactly as the engine wrote them
   * (tooling spec §7.6), for a tool that prints the records as JSON without reading them.
   *
   * @param files the kind documents, policies and modules
   * @param testFiles the test files; at least one
   * @param options data files for {@code input_file}, the cases to run, trusted files
   * @return the compact UTF-8 JSON list of TestResult records, sorted by path
   * @throws EngineException as {@link #test(List, List, TestOptions)} does
   * @throws StoppedException if the instance is stopped, or stops during this call
   * @throws IllegalStateException if the engine is closed
   */
  public byte[] testJson(List<SourceFile> files, List<SourceFile> testFiles, TestOptions options) {
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(testFiles, "testFiles");
    Objects.requireNonNull(options, "options");
    return AbiCodec.bodyField(roundTrip(Requests.test(files, testFiles, options)), "results");
  }


  /** The body of the test op's answer. */
  private record Tested(
      @JsonProperty(value = "results", required = true) List<TestResult> results) {

    Tested {
      results = List.copyOf(results);
    }
  }

  /** The body of the format op's answer. */
  private record Formatted(
      @JsonProperty(value = "source", required = true) String source,
      @JsonProperty(value = "formatted", required = true) boolean formatted) {

    Formatted {
      Objects.requireNonNull(source, "source");
    }
  }

  /**
   * Compiles the root policy of {@code files} and keeps it in this instance until the returned
   * {@link Policy} is closed. Problems in documents the root doesn't use don't stop it: they are
   * the policy's {@link Policy#diagnostics()}.
   *
   * @param files the kind documents, policies and modules
   * @param options which policy is the root, trusted files, required policies, host functions and
   *     stubs
   * @return the compiled policy; close it when done (a policy collected unclosed is released at
   *     this engine's next call). It keeps the instance alive after this engine is closed
   * @throws EngineException if nothing was compiled: no files, no root or several, errors in the
   *     root or what it uses (as diagnostics), a requirement it breaks, a host function or stub the
   *     kind doesn't declare, a stub of the wrong type or one JSON can't write; the instance works
   *     on
   * @throws StoppedException if the instance is stopped, or stops during this call
   * @throws IllegalStateException if the engine is closed
   */
  public Policy compile(List<SourceFile> files, CompileOptions options) {
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(options, "options");
    instance.holdForPolicy();
    try {
      Policy.Compiled compiled =
          AbiCodec.decode(roundTrip(Requests.compile(files, options)), Policy.Compiled.class);
      return new Policy(instance, compiled, options.functions());
    } catch (RuntimeException failed) {
      instance.dropHolder();
      throw failed;
    }
  }

  /**
   * Explains the policies of {@code files} as {@code sigil explain} does: each compiled without
   * evaluating anything and flattened into every decision rule and assert it can reach, invoked
   * policies inlined. Problems in documents no explained policy uses don't stop it.
   *
   * @param files the kind documents, policies and modules
   * @param options which policies to explain (every one outside the trusted files by default), and
   *     trusted files
   * @return one explanation per policy, sorted by name
   * @throws EngineException if nothing was explained: no files, no policy or none matching, errors
   *     in a policy to explain or what it uses, an invocation argument outside its param's bounds
   *     (as diagnostics); the instance works on
   * @throws StoppedException if the instance is stopped, or stops during this call
   * @throws IllegalStateException if the engine is closed
   */
  public List<Explanation> explain(List<SourceFile> files, ExplainOptions options) {
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(options, "options");
    return Policy.explanations(roundTrip(Requests.explain(files, options)));
  }
  /**
   * {@link #explain(List, ExplainOptions)}, answering the explanations exactly as the engine wrote
   * them (tooling spec §5.2: a policy without rules has {@code "rules":null}), for a tool that prints
   * the records as JSON without reading them.
   *
   * @param files the kind documents, policies and modules
   * @param options which policies to explain, and trusted files
   * @return the compact UTF-8 JSON list of Explanation records, sorted by policy name
   * @throws EngineException as {@link #explain(List, ExplainOptions)} does
   * @throws StoppedException if the instance is stopped, or stops during this call
   * @throws IllegalStateException if the engine is closed
   */
  public byte[] explainJson(List<SourceFile> files, ExplainOptions options) {
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(options, "options");
    return AbiCodec.bodyField(roundTrip(Requests.explain(files, options)), "explanations");
  }


  /**
   * The size of this instance's linear memory in bytes: a whole number of 64 KiB WebAssembly pages.
   * The module grows its memory when a request needs more and never gives it back, so this is the
   * instance's high-water mark; compare it with {@link Limits#maxMemory()} to see how close an
   * instance is to its cap. Reading it does not enter the module, and works on a stopped instance
   * too (whose memory is kept until it is closed). It waits while a call on another thread runs.
   *
   * @return the memory size in bytes, at least one page once the engine started
   * @throws IllegalStateException if the engine is closed
   * @throws EngineException if a host function of this instance asks (the instance is busy running it)
   */
  public long memorySize() {
    return instance.memorySize();
  }

  /**
   * Why the instance stopped, without calling it. Never blocks.
   *
   * @return the error every call now throws, or empty while the instance works
   */
  public Optional<StoppedException> stopped() {
    return instance.stopped();
  }

  /**
   * Ends this engine's own operations; later ones throw {@link IllegalStateException}. The
   * instance, with its memory, its stack helper thread and its hold on the module, is freed now if
   * no policy compiled in it is open, else when the last one is closed: open policies work on.
   * Waits for a call running on another thread to finish. Idempotent.
   */
  @Override
  public void close() {
    instance.closeEngine();
  }

  /** One raw request through the ABI: JSON text in, the module's JSON response out. For tests. */
  String call(String requestJson) {
    return new String(roundTrip(bytes(requestJson)), StandardCharsets.UTF_8);
  }

  /** The instance machinery behind this façade, for tests that drive it below the requests. */
  Instance instance() {
    return instance;
  }

  private byte[] roundTrip(ObjectNode request) {
    return instance.call(request, Caller.ENGINE);
  }

  private byte[] roundTrip(byte[] request) {
    return instance.call(request, Caller.ENGINE);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
