/**
 * The svc policy engine for the JVM: the engine module ({@code engine.wasm}) running on wasmtime
 * through svc's own JNI bridge.
 *
 * <h2>Where things are</h2>
 *
 * <ul>
 *   <li>{@link dev.svc.engine.Module}: the compiled engine module. Load it once ({@link
 *       dev.svc.engine.Module#bundled()}) and share it.
 *   <li>{@link dev.svc.engine.Engine}: one running instance of the module; one method per engine
 *       operation ({@link dev.svc.engine.Engine#version()}, {@link
 *       dev.svc.engine.Engine#format(String, dev.svc.engine.FormatOptions)}), options as records
 *       ({@link dev.svc.engine.FormatOptions}).
 *   <li>{@link dev.svc.engine.ModuleConfig} and {@link dev.svc.engine.Limits}: how a module is
 *       compiled and what bounds an instance's calls.
 *   <li>Records mirroring the engine's JSON: {@link dev.svc.engine.VersionInfo}, {@link
 *       dev.svc.engine.Diagnostic}, {@link dev.svc.engine.TestResult} and {@link
 *       dev.svc.engine.TestCaseResult} (what {@link dev.svc.engine.Engine#test} answers).
 *   <li>{@link dev.svc.engine.Stub} and {@link dev.svc.engine.StubCall}: host functions answered
 *       by stubs, given to {@link dev.svc.engine.CompileOptions#withStub}.
 *   <li>{@link dev.svc.engine.Durations}: Sigil's duration syntax ({@code 1h30m}) to and from
 *       {@link java.time.Duration}.
 *   <li>{@link dev.svc.engine.kind}: kinds defined in Java ({@link
 *       dev.svc.engine.kind.Kind#builder(String)}), exported as kind files.
 *   <li>Errors, all unchecked under the sealed {@link dev.svc.engine.SvcException}: {@link
 *       dev.svc.engine.EngineException} (the request was refused; the instance works on) and
 *       {@link dev.svc.engine.StoppedException} with {@link dev.svc.engine.TimeoutException} and
 *       {@link dev.svc.engine.OutOfFuelException} (the instance is dead; build a new one).
 * </ul>
 *
 * <h2>Lifecycle</h2>
 *
 * Both {@code Module} and {@code Engine} hold native memory and are {@link AutoCloseable}; close
 * them with try-with-resources. An instance keeps its module alive until the instance is closed.
 *
 * <h2>Thread safety</h2>
 *
 * <table>
 *   <caption>Which types may be shared between threads</caption>
 *   <tr><th>Type</th><th>Rule</th></tr>
 *   <tr><td>Module, records, exceptions, Durations, kinds</td><td>immutable and thread-safe</td></tr>
 *   <tr><td>Engine</td><td>thread-safe; calls on one instance run one at a time</td></tr>
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
