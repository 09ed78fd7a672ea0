package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.engine.internal.AbiCodec;
import dev.svc.engine.internal.EpochTicker;
import dev.svc.engine.internal.GuestTrap;
import dev.svc.engine.internal.Native;
import dev.svc.engine.internal.WasmError;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One running instance of the engine module: its own memory, its own compiled policies. Start it
 * from a shared {@link Module}; each operation of the engine is one method here.
 *
 * <pre>{@code
 * try (Module module = Module.bundled(); Engine engine = Engine.create(module)) {
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
  private static final String START_HELP =
      "build engine.wasm from the same svc revision as this library; with Limits.maxMemory, the"
          + " module needs a few MiB to start";

  private final Module module;
  private final Limits limits;
  private final HostCalls hostCalls;
  private final long instance;
  private final ReentrantLock lock = new ReentrantLock();
  // Handles of policies collected without close; released at the start of the next call.
  private final Queue<Long> abandoned = new ConcurrentLinkedQueue<>();
  private volatile StoppedException stopped;
  // What keeps the instance: this engine until closed, each open policy, and each running call (so a
  // policy closed inside its own host function can't free the instance under its evaluation).
  private final AtomicInteger holders = new AtomicInteger(1);
  private boolean closed; // guarded by lock: the engine's own operations are over
  private boolean freed; // guarded by lock: the instance is gone

  private Engine(Module module, Limits limits, HostCalls hostCalls, long instance) {
    this.module = module;
    this.limits = limits;
    this.hostCalls = hostCalls;
    this.instance = instance;
  }

  /**
   * Starts an instance of the engine module this library ships ({@link Module#bundled()}), with the
   * default {@link Limits}: the shortest way to an engine. The instance owns its module, which goes
   * when the instance is closed; an application that starts several instances shares one {@link
   * Module} instead and starts each with {@link #create(Module)}.
   *
   * @return the running instance; the caller closes it
   * @throws EngineException if the native libraries can't be loaded on this platform, or this copy of
   *     the library holds no engine module
   * @throws StoppedException if the module trapped or exited while starting (with its stderr)
   */
  public static Engine bundled() {
    try (Module module = Module.bundled()) {
      return create(module);
    }
  }

  /**
   * Starts an instance of {@code module} with the default {@link Limits}; see
   * {@link #create(Module, Limits)}.
   *
   * @param module the compiled engine module; it stays alive until this instance is closed
   * @return the running instance; the caller closes it
   * @throws StoppedException if the module trapped or exited while starting (with its stderr)
   * @throws EngineException if the module speaks another ABI version than {@link Module#ABI_VERSION}
   * @throws IllegalStateException if {@code module} is closed
   */
  public static Engine create(Module module) {
    return create(module, Limits.defaults());
  }

  /**
   * Starts an instance of {@code module}: instantiates it, runs its start function and checks that
   * it speaks this library's ABI version ({@link Module#ABI_VERSION}). Takes microseconds: the
   * expensive compile happened when the module was loaded.
   *
   * @param module the compiled engine module; it stays alive until this instance is closed
   * @param limits the bounds of every call on the instance
   * @return the running instance; the caller closes it
   * @throws StoppedException if the module trapped or exited while starting (with its stderr), for
   *     example because {@link Limits#maxMemory()} is below what it needs to start
   * @throws EngineException if the module speaks another ABI version than {@link Module#ABI_VERSION}
   * @throws IllegalStateException if {@code module} is closed
   */
  public static Engine create(Module module, Limits limits) {
    Objects.requireNonNull(module, "module");
    Objects.requireNonNull(limits, "limits");
    long pre = module.acquire();
    HostCalls hostCalls = new HostCalls();
    long instance;
    try {
      instance = Native.instanceNew(pre, limits.maxMemory().orElse(-1), hostCalls);
    } catch (WasmError e) {
      module.release();
      throw new StoppedException(
          "starting the Sigil module failed: " + e.getMessage(), START_HELP, e);
    } catch (RuntimeException | Error e) {
      module.release();
      throw e;
    }
    Engine engine = new Engine(module, limits, hostCalls, instance);
    try {
      engine.start();
    } catch (RuntimeException | Error e) {
      Native.instanceFree(instance);
      module.release();
      throw e;
    }
    return engine;
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
    lockOpen(Caller.ENGINE);
    holders.incrementAndGet();
    lock.unlock();
    try {
      Policy.Compiled compiled =
          AbiCodec.decode(roundTrip(Requests.compile(files, options)), Policy.Compiled.class);
      return new Policy(this, compiled, options.functions());
    } catch (RuntimeException failed) {
      dropHolder();
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
    return explained(Requests.explain(files, options), Caller.ENGINE);
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


  /** One explain request: the explanations it answers, none when it answers none. */
  List<Explanation> explained(ObjectNode request, Caller caller) {
    return AbiCodec.decode(roundTrip(request, caller), Explained.class).explanations();
  }

  /** The body of the explain op's answer. */
  private record Explained(@JsonProperty("explanations") List<Explanation> explanations) {

    Explained {
      explanations = explanations == null ? List.of() : List.copyOf(explanations);
    }
  }

  /**
   * One eval request, under the evaluation's own hard deadline when it has a timeout and its fuel
   * bound when it has one, with the policy's host functions answering the module's host calls while
   * it runs.
   */
  EvalResult evaluate(byte[] request, EvalOptions options, Map<String, HostFunction> functions) {
    return AbiCodec.evalResult(evaluateRaw(request, options, functions));
  }

  /** {@link #evaluate}, answering the module's response as it wrote it. */
  byte[] evaluateRaw(byte[] request, EvalOptions options, Map<String, HostFunction> functions) {
    Optional<Duration> deadline = options.hardDeadline(limits.grace()).or(limits::opDeadline);
    if (options.fuel().isPresent() && !module.config().fuel()) {
      throw new EngineException(
          "a fuel limit needs a module built with fuel metering",
          "load the module with ModuleConfig.defaults().withFuel(true)");
    }
    long fuel = options.fuel().orElse(Native.UNLIMITED_FUEL);
    return roundTrip(request, deadline, fuel, functions, Caller.POLICY);
  }

  /**
   * Closes a policy: releases its handle, then lets go of the instance, which goes when nothing else
   * holds it. A stopped instance, or one this policy alone still holds, is dropped whole, so its
   * handle costs no call. From inside a host function of this instance, which can't call it, the
   * handle waits for the next call.
   */
  void closePolicy(long handle) {
    try {
      // Only this policy holding means the engine is closed and no new policy can come.
      if (stopped == null && holders.get() > 1) {
        releaseHandle(handle);
      }
    } finally {
      dropHolder();
    }
  }

  private void releaseHandle(long handle) {
    if (insideHostFunction()) {
      abandoned.add(handle);
      return;
    }
    lock.lock();
    try {
      if (!freed && stopped == null) {
        release(handle);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Queues the handle of a policy that was never closed, for release at the start of this instance's
   * next call, and lets go of the instance: a policy's cleaner runs on the cleaner's thread, maybe
   * in the middle of a call, so it never calls the module itself (bindings.md §7).
   */
  void abandon(long handle) {
    abandoned.add(handle);
    dropHolder();
  }

  /** Lets go of the instance; the last holder frees it. */
  private void dropHolder() {
    if (holders.decrementAndGet() > 0) {
      return;
    }
    lock.lock();
    try {
      if (freed) {
        return;
      }
      freed = true;
      Native.instanceFree(instance);
    } finally {
      lock.unlock();
    }
    module.release();
  }

  // INVARIANT: runs under the lock on an open instance.
  private void releaseAbandoned() {
    for (Long handle = abandoned.poll(); handle != null; handle = abandoned.poll()) {
      if (stopped != null) {
        return;
      }
      try {
        release(handle);
      } catch (EngineException gone) {
        // Nobody waits for this release; a handle the module no longer knows is released already.
      }
    }
  }

  // INVARIANT: runs under the lock on an open instance.
  private void release(long handle) {
    byte[] request = AbiCodec.request(Requests.release(handle));
    AbiCodec.decode(callModule(request, limits.opDeadline(), Native.UNLIMITED_FUEL), Released.class);
  }

  /** The (empty) body of the release op's answer. */
  private record Released() {}

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
    lockOpen(Caller.ENGINE);
    try {
      return Native.instanceMemorySize(instance);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Why the instance stopped, without calling it. Never blocks.
   *
   * @return the error every call now throws, or empty while the instance works
   */
  public Optional<StoppedException> stopped() {
    return Optional.ofNullable(stopped);
  }

  /**
   * Ends this engine's own operations; later ones throw {@link IllegalStateException}. The
   * instance, with its memory, its stack helper thread and its hold on the module, is freed now if
   * no policy compiled in it is open, else when the last one is closed: open policies work on.
   * Waits for a call running on another thread to finish. Idempotent.
   */
  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
    } finally {
      lock.unlock();
    }
    dropHolder();
  }

  /** One raw request through the ABI: JSON text in, the module's JSON response out. For tests. */
  String call(String requestJson) {
    return new String(roundTrip(bytes(requestJson)), StandardCharsets.UTF_8);
  }

  private byte[] roundTrip(ObjectNode request) {
    return roundTrip(request, Caller.ENGINE);
  }

  private byte[] roundTrip(ObjectNode request, Caller caller) {
    return roundTrip(AbiCodec.request(request), limits.opDeadline(), Native.UNLIMITED_FUEL, Map.of(), caller);
  }

  private byte[] roundTrip(byte[] request) {
    return roundTrip(request, limits.opDeadline(), Native.UNLIMITED_FUEL, Map.of(), Caller.ENGINE);
  }

  /** Who calls the instance: the engine's own operations end with {@link #close()}, a policy's with it. */
  enum Caller {
    ENGINE,
    POLICY
  }

  // One call under the lock, with `functions` answering the module's host calls while it runs.
  private byte[] roundTrip(
      byte[] request,
      Optional<Duration> deadline,
      long fuel,
      Map<String, HostFunction> functions,
      Caller caller) {
    throwIfStopped();
    lockOpen(caller);
    holders.incrementAndGet();
    hostCalls.install(functions);
    try {
      releaseAbandoned();
      throwIfStopped();
      return callModule(request, deadline, fuel);
    } finally {
      hostCalls.clear();
      lock.unlock();
      dropHolder();
    }
  }

  // Whether the calling thread is inside a host function of this instance: the evaluation's own
  // thread holds the lock, and the stack helper thread runs host functions for a caller that holds it.
  private boolean insideHostFunction() {
    return lock.isHeldByCurrentThread() || hostCalls.runsOn(Thread.currentThread());
  }

  // Takes the lock of an open instance for one operation; the caller unlocks. A host function that
  // calls back into the instance running it is refused instead of meeting the bridge's busy guard,
  // or, on the stack helper thread, waiting for a lock its own caller holds.
  private void lockOpen(Caller caller) {
    if (insideHostFunction()) {
      throw new EngineException(
          "the module is busy: a host function can't call back into the instance that runs it",
          "use another instance for the nested call, or compute the value before the evaluation");
    }
    lock.lock();
    // An open policy holds the instance, so only the engine's own operations can find it closed.
    if (caller == Caller.ENGINE ? closed : freed) {
      lock.unlock();
      throw new IllegalStateException("the Engine is closed; create a new one");
    }
  }

  // INVARIANT: runs under the lock on an open instance.
  private byte[] callModule(byte[] request, Optional<Duration> deadline, long fuel) {
    byte[] response;
    try {
      response = underDeadline(deadline, ticks -> Native.call(instance, request, ticks, fuel));
    } catch (GuestTrap trap) {
      throw stoppedBy(trap, deadline);
    } catch (RuntimeException | Error e) {
      // A host function that threw past its own handler stopped the module mid-call.
      if (Native.isStopped(instance)) {
        throw latch(new StoppedException(
            "the Sigil module stopped: a host function failed: " + e, StoppedException.HELP_REBUILD, e));
      }
      throw e;
    }
    if (response == null) {
      throw new EngineException(
          "the module couldn't allocate memory for a request",
          "the instance is out of memory; build a new one, or raise Limits.maxMemory");
    }
    return response;
  }

  private void throwIfStopped() {
    StoppedException s = stopped;
    if (s != null) {
      throw s;
    }
  }

  /** Runs one guest entry with the epoch deadline {@code deadline} allows (none when empty). */
  private <T> T underDeadline(Optional<Duration> deadline, GuestEntry<T> entry) {
    if (deadline.isEmpty()) {
      return entry.run(Native.NO_DEADLINE);
    }
    EpochTicker ticker = module.ticker();
    ticker.watch();
    try {
      return entry.run(EpochTicker.ticksFor(deadline.get()));
    } finally {
      ticker.unwatch();
    }
  }

  @FunctionalInterface
  private interface GuestEntry<T> {
    T run(long deadlineTicks);
  }

  // The first cause wins; later calls get this same error without entering the module.
  private StoppedException latch(StoppedException cause) {
    return latch(cause, cause);
  }

  private StoppedException latch(StoppedException now, StoppedException later) {
    if (stopped == null) {
      stopped = later;
    }
    return now;
  }

  // A killed call reports its deadline; the calls after it report that the instance died earlier.
  private StoppedException stoppedBy(GuestTrap trap, Optional<Duration> deadline) {
    String stderr = stderr(instance);
    if (trap.kind() == GuestTrap.Kind.INTERRUPT && deadline.isPresent()) {
      return latch(
          new TimeoutException(deadline.get(), stderr),
          new StoppedException(
              "the Sigil module stopped earlier: a call ran past its hard deadline and was killed" + stderr,
              StoppedException.HELP_REBUILD, trap));
    }
    if (trap.kind() == GuestTrap.Kind.OUT_OF_FUEL) {
      return latch(
          new OutOfFuelException(stderr),
          new StoppedException(
              "the Sigil module stopped earlier: a call ran out of fuel and was stopped" + stderr,
              StoppedException.HELP_REBUILD, trap));
    }
    return latch(stopped(trap, stderr));
  }

  private void start() {
    Optional<Duration> deadline = limits.opDeadline();
    try {
      underDeadline(deadline, ticks -> {
        Native.initialize(instance, ticks, Native.UNLIMITED_FUEL);
        return null;
      });
    } catch (GuestTrap trap) {
      throw new StoppedException(
          "starting the Sigil module failed: " + why(trap) + stderr(instance), START_HELP, trap);
    }
    int version;
    try {
      version = underDeadline(deadline, ticks -> Native.abiVersion(instance, ticks, Native.UNLIMITED_FUEL));
    } catch (GuestTrap trap) {
      throw new StoppedException(
          "the Sigil module trapped while reporting its ABI version: " + why(trap) + stderr(instance),
          StoppedException.HELP_REBUILD, trap);
    }
    if (version != Module.ABI_VERSION) {
      throw new EngineException(
          "the module speaks ABI version " + version + ", and this library version " + Module.ABI_VERSION,
          "use the engine.wasm that ships with this library (Module.bundled()), or one built from"
              + " the same svc revision");
    }
  }

  private static StoppedException stopped(GuestTrap trap, String stderr) {
    return new StoppedException(
        "the Sigil module stopped: " + why(trap) + stderr,
        StoppedException.HELP_REBUILD
            + ". Unless the input or policy was extreme, such as nesting thousands deep, this is a"
            + " bug in the engine: please report it with the output above",
        trap);
  }

  // A module that hands back memory it doesn't have broke the ABI rather than trapped (bindings §2).
  private static String why(GuestTrap trap) {
    return switch (trap.kind()) {
      case EXIT -> "it exited with code " + trap.exitCode();
      case BAD_RESPONSE -> trap.getMessage();
      default -> "it trapped: " + trap.getMessage();
    };
  }

  // The module writes the reason for a fatal error to stderr; quote its first and last lines.
  private static String stderr(long instance) {
    String text = new String(Native.instanceStderr(instance), StandardCharsets.UTF_8).strip();
    return text.isEmpty() ? "" : "\n" + text;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
