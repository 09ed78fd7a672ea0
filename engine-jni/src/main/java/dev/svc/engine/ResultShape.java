package dev.svc.engine;

/**
 * How the results of a kind's policies read: whether the kind collects every decision that fired,
 * and whether a collecting kind ranks its decisions, which makes its outcome the top rank only.
 * {@link dev.svc.engine.kind.Kind#compile(Engine, java.util.List,
 * dev.svc.engine.kind.KindCompileOptions) Kind.compile} marks every result of the policies it
 * compiles with the kind's shape ({@link EvalResult#shape()}), so the decision helpers can tell a
 * single outcome from a collection even when the eval record alone can't: the record says {@code
 * collect} for a ranked collecting kind too.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param collect whether the kind is {@code collect all}
 * @param ranked whether a collecting kind has a precedence over its decisions
 */
public record ResultShape(boolean collect, boolean ranked) {}
