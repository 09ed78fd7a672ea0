/**
 * A pool of engine instances whose supervisor replaces the ones that stop.
 *
 * <h2>Where things are</h2>
 *
 * <ul>
 *   <li>{@link dev.svc.supervisor.Pool}: start here. {@code Pool.create(module, size)}, then
 *       {@code compile} or {@code install} policies under names and {@code evaluate} them by name
 *       from any thread; {@code async} (any calls), {@code evaluateAsync} and {@code compileAsync}
 *       run on the pool's threads, for callers that must not block, in two
 *       {@link dev.svc.supervisor.Lane}s so evaluations never wait behind slow work.
 *   <li>{@link dev.svc.supervisor.PoolOptions}: size, instance {@link dev.svc.engine.Limits},
 *       acquire timeout, listener, the instances slow operations may hold.
 *   <li>{@link dev.svc.supervisor.Recipe}: how to compile one installed policy in a given instance;
 *       the pool runs it in every instance, and again in each replacement.
 *   <li>{@link dev.svc.supervisor.PoolStats}: sizes and the count of replaced instances.
 *   <li>{@link dev.svc.supervisor.PoolListener} and {@link dev.svc.supervisor.FailureKind}: what the
 *       pool reports for metrics; {@link dev.svc.supervisor.micrometer.MicrometerPoolListener}
 *       records it in Micrometer.
 * </ul>
 *
 * <h2>Lifecycle</h2>
 *
 * <p>The caller loads the {@link dev.svc.engine.EngineModule}, creates the pool from it, and closes the
 * pool before the module. An instance that stops (a trap, a hard deadline, fuel, memory) fails the
 * call that stopped it at once and is rebuilt in the background with every installed policy.
 *
 * <h2>Errors</h2>
 *
 * <p>The engine's sealed {@link dev.svc.engine.SvcException} tree, plus two of the pool's own:
 * {@link dev.svc.engine.NoPolicyException} for a name nothing is installed under, and
 * {@link dev.svc.engine.BusyException} when no instance was free within the acquire timeout. A
 * {@link dev.svc.engine.StoppedException} from a pool call means that call's instance is being
 * replaced; the pool works on. A closed pool throws {@link java.lang.IllegalStateException}.
 *
 * <h2>Thread safety</h2>
 *
 * <table>
 *   <caption>Thread safety of the public types</caption>
 *   <tr><th>Type</th><th>Thread safety</th></tr>
 *   <tr><td>{@code Pool}</td><td>thread-safe; share one</td></tr>
 *   <tr><td>{@code PoolOptions}, {@code PoolStats}, {@code FailureKind}</td>
 *       <td>immutable and thread-safe</td></tr>
 *   <tr><td>{@code PoolOptions.Builder}</td><td>not thread-safe</td></tr>
 *   <tr><td>{@code Recipe}, {@code PoolListener}</td><td>implementations must be thread-safe</td></tr>
 * </table>
 */
package dev.svc.supervisor;
