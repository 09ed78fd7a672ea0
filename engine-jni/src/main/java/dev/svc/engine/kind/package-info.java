/**
 * Kinds defined in Java: the contract policies are written against, exported as a kind file byte
 * for byte as the engine prints it.
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
 *   <li>{@link dev.svc.engine.kind.FnDecl}: a host function's signature.
 * </ul>
 *
 * <h2>Errors</h2>
 *
 * A kind with mistakes doesn't build: {@link dev.svc.engine.kind.KindBuilder#build()} throws one
 * {@link dev.svc.engine.EngineException} listing every problem, and {@link
 * dev.svc.engine.kind.KindBuilder#problems()} returns them as a list. Rules that need the whole
 * language (keywords, collisions in the kind's namespace) are the engine's: {@link
 * dev.svc.engine.kind.Kind#check(dev.svc.engine.Engine)} asks it.
 *
 * <h2>Thread safety</h2>
 *
 * Kinds, types, decisions, outcomes and signatures are immutable and thread-safe; a builder is not
 * thread-safe.
 */
package dev.svc.engine.kind;
