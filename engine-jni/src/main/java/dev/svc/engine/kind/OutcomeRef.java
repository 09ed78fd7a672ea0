package dev.svc.engine.kind;

/**
 * What an {@link KindBuilder#exclusive(OutcomeRef...) exclusive} set names: a whole {@link
 * Decision} (any of its reasons), or one {@link Outcome} of it. Its {@link Object#toString()
 * toString()} is how the kind file writes it: {@code hold} or {@code open.maintenance}.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public sealed interface OutcomeRef permits Decision, Outcome {}
