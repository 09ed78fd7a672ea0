/**
 * Kinds defined in Java: the contract policies are written against, exported as a kind file byte
 * for byte as the engine prints it, policies compiled against it, and their results read through
 * its decisions.
 *
 * <h2>Where things are</h2>
 *
 * <ul>
 *   <li>{@link dev.svc.engine.kind.Kind#builder(String)} starts a {@link
 *       dev.svc.engine.kind.KindBuilder}; {@link dev.svc.engine.kind.KindBuilder#build()} checks
 *       the definition and returns the {@link dev.svc.engine.kind.Kind}, whose {@link
 *       dev.svc.engine.kind.Kind#schema()} is the kind file.
 *   <li>{@link dev.svc.engine.kind.Type}: the types of inputs, host functions and payload fields,
 *       with enums and struct types.
 *   <li>{@link dev.svc.engine.kind.Decision} with its payload fields and their defaults; {@link
 *       dev.svc.engine.kind.Outcome}, one reason of a decision; {@link
 *       dev.svc.engine.kind.OutcomeRef}, either one, as an exclusive set names them.
 *   <li>{@link dev.svc.engine.kind.FnDecl}: a host function's signature, and its Java
 *       implementation ({@link dev.svc.engine.kind.FnDecl#implement(dev.svc.engine.HostFunction)}).
 *   <li>{@link dev.svc.engine.kind.Kind#compile(dev.svc.engine.Engine, java.util.List,
 *       dev.svc.engine.kind.KindCompileOptions)} with {@link
 *       dev.svc.engine.kind.KindCompileOptions}: compiles a policy with the kind file added, the
 *       kind's implementations, and every result marked with the kind's {@link
 *       dev.svc.engine.ResultShape}.
 *   <li>Reading results: {@link dev.svc.engine.kind.Decision#match(dev.svc.engine.EvalResult,
 *       Class)} (the single outcome's payload, typed), {@link
 *       dev.svc.engine.kind.Decision#matchAll(dev.svc.engine.EvalResult)} (every entry of a
 *       decision, as {@link dev.svc.engine.kind.Matched}), {@link
 *       dev.svc.engine.kind.Outcome#is(dev.svc.engine.EvalResult)}.
 * </ul>
 *
 * <h2>Errors</h2>
 *
 * A kind with mistakes doesn't build: {@link dev.svc.engine.kind.KindBuilder#build()} throws one
 * {@link dev.svc.engine.EngineException} listing every problem, and {@link
 * dev.svc.engine.kind.KindBuilder#problems()} returns them as a list. Rules that need the whole
 * language (keywords, collisions in the kind's namespace) are the engine's: {@link
 * dev.svc.engine.kind.Kind#check(dev.svc.engine.Engine)} asks it. A kind file among the files to
 * compile that isn't the kind's current one stops {@code compile}. Asking a collecting kind's
 * result without precedence for its single outcome, or a payload for a type it doesn't fit, throws
 * an {@link dev.svc.engine.EngineException}. A failed evaluation is no error: its outcome is the
 * kind's fallback, which the helpers match like any other, so check {@link
 * dev.svc.engine.EvalResult#error()} first where a failure matters.
 *
 * <h2>Thread safety</h2>
 *
 * Kinds, types, decisions, outcomes, signatures and options are immutable and thread-safe (a
 * kind's host functions run on the evaluating thread); a builder is not thread-safe.
 */
package dev.svc.engine.kind;
