/**
 * The svc policy engine for the JVM: the engine module ({@code engine.wasm}) running on wasmtime
 * through svc's own JNI bridge.
 *
 * <h2>Where things are</h2>
 *
 * <ul>
 *   <li>{@link dev.svc.engine.EngineModule}: the compiled engine module. Load it once ({@link
 *       dev.svc.engine.EngineModule#bundled()}, or from a file, a URL or bytes; {@link
 *       dev.svc.engine.EngineModule#precompile()} and {@link dev.svc.engine.EngineModule#fromPrecompiled} skip
 *       the compile) and share it.
 *   <li>{@link dev.svc.engine.Engine}: one running instance of the module; one method per engine
 *       operation ({@link dev.svc.engine.Engine#version()}, {@link
 *       dev.svc.engine.Engine#check(java.util.List, dev.svc.engine.CheckOptions) check}, {@link
 *       dev.svc.engine.Engine#compile(java.util.List, dev.svc.engine.CompileOptions) compile},
 *       {@link dev.svc.engine.Engine#explain(java.util.List, dev.svc.engine.ExplainOptions)
 *       explain}, {@link dev.svc.engine.Engine#format(String, dev.svc.engine.FormatOptions) format},
 *       {@link dev.svc.engine.Engine#test(java.util.List, java.util.List,
 *       dev.svc.engine.TestOptions) test}), options as records ({@link
 *       dev.svc.engine.CheckOptions}, {@link dev.svc.engine.CompileOptions}, {@link
 *       dev.svc.engine.ExplainOptions}, {@link dev.svc.engine.FormatOptions}, {@link
 *       dev.svc.engine.TestOptions}) whose defaults send nothing but the files.
 *   <li>{@link dev.svc.engine.Policy}: a policy compiled in an engine; {@link
 *       dev.svc.engine.Policy#eval(Object)} evaluates an input to an {@link
 *       dev.svc.engine.EvalResult}, under {@link dev.svc.engine.EvalOptions} (timeout, grace,
 *       fuel, trace); {@link dev.svc.engine.Policy#decide(Object)} answers the record without its
 *       trace, for a host that acts on the decision alone.
 *   <li>{@link dev.svc.engine.HostFunction}: host functions implemented in Java, raw or typed;
 *       {@link dev.svc.engine.Stub} and {@link dev.svc.engine.StubCall}: host functions answered by
 *       stubs. Both go to {@link dev.svc.engine.CompileOptions}.
 *   <li>{@link dev.svc.engine.ModuleConfig} and {@link dev.svc.engine.Limits}: how a module is
 *       compiled and what bounds an instance's calls (hard deadlines, memory).
 *   <li>{@link dev.svc.engine.Isolation}: where an instance runs, in this JVM or in an engine host
 *       process of its own ({@code svc-engine-host}), where a native crash stops that instance only
 *       ({@link dev.svc.engine.Engine#create(EngineModule, Limits, Isolation)}).
 *   <li>Records mirroring the engine's JSON field for field, which Jackson reads and writes back as
 *       the engine wrote them: {@link dev.svc.engine.EvalResult} with {@link
 *       dev.svc.engine.EvalEntry}, {@link dev.svc.engine.EvalFailure} and {@link
 *       dev.svc.engine.FailedAssert}; {@link dev.svc.engine.Explanation} with {@link
 *       dev.svc.engine.ExplainEntry}; {@link dev.svc.engine.Diagnostic}; {@link
 *       dev.svc.engine.TestResult} and {@link dev.svc.engine.TestCaseResult}; {@link
 *       dev.svc.engine.VersionInfo}; {@link dev.svc.engine.SourceFile}, {@link
 *       dev.svc.engine.Requirement} and {@link dev.svc.engine.CompileRequirement} going the other
 *       way.
 *   <li>{@link dev.svc.engine.EngineJson}: those records as JSON text, for a tool that prints
 *       them; {@link dev.svc.engine.EvalRecords}: what an eval record left as bytes ({@link
 *       dev.svc.engine.Policy#evalJson}) decided, without binding it.
 *   <li>{@link dev.svc.engine.Durations}: Sigil's duration syntax ({@code 1h30m}) to and from
 *       {@link java.time.Duration}, both as a policy writes it and as the engine prints a value
 *       ({@code -15m}, {@code 1ms+500000ns}).
 *   <li>{@link dev.svc.engine.kind}: kinds defined in Java ({@link
 *       dev.svc.engine.kind.Kind#builder(String)}), exported as kind files, and helpers that read
 *       results through a kind's decisions.
 *   <li>Errors, all unchecked under the sealed {@link dev.svc.engine.SvcException}: {@link
 *       dev.svc.engine.EngineException} (the request was refused; the instance works on) and
 *       {@link dev.svc.engine.StoppedException} with {@link dev.svc.engine.TimeoutException} and
 *       {@link dev.svc.engine.OutOfFuelException} (the instance is dead; build a new one); {@link
 *       dev.svc.engine.NoPolicyException} and {@link dev.svc.engine.BusyException} for a pool of
 *       instances. A failed evaluation is a result, not an error.
 * </ul>
 *
 * <h2>Lifecycle</h2>
 *
 * {@code EngineModule}, {@code Engine} and {@code Policy} hold native memory and are {@link
 * AutoCloseable}; close them with try-with-resources. An instance keeps its module alive until the
 * instance is closed, so a module may be closed early. A policy lives in its instance: closing the
 * engine frees every policy in it. A policy collected unclosed is released at its engine's next
 * call.
 *
 * <h2>Arguments</h2>
 *
 * A null argument is refused with a {@link NullPointerException} naming the parameter, unless the
 * parameter's documentation allows null; no method returns null. Option records and builders are
 * immutable: each {@code with…} method returns a copy.
 *
 * <h2>Thread safety</h2>
 *
 * <table>
 *   <caption>Which types may be shared between threads</caption>
 *   <tr><th>Type</th><th>Rule</th></tr>
 *   <tr><td>EngineModule, options, records, exceptions, Durations, kinds</td><td>immutable and
 *       thread-safe</td></tr>
 *   <tr><td>Engine, Policy</td><td>thread-safe; calls on one instance run one at a time, the others
 *       wait</td></tr>
 *   <tr><td>HostFunction</td><td>runs on the thread that evaluates; one shared by several engines
 *       runs on several threads at once</td></tr>
 * </table>
 *
 * <p>Any thread may call an engine, whatever its stack size: a thread with too little native stack
 * left for the module has its calls run on a helper thread of the instance (see {@link
 * dev.svc.engine.Engine}).
 *
 * <p>The native libraries ship inside the jar and load from it by themselves; set the system
 * property {@code svc.native.path} (or {@code SVC_NATIVE_PATH}) to a directory holding them to load
 * others instead.
 */
package dev.svc.engine;
