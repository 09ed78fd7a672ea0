package dev.svc.engine.kind;

import dev.svc.engine.HostFunction;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A host function's signature, {@code fn split(string, string) -> list<string>} in a kind file, and
 * optionally its Java implementation. Policies call it by position with exactly these parameter
 * types. The result can't be optional.
 *
 * <pre>{@code
 * new FnDecl(List.of(Type.STRING, Type.STRING), Type.list(Type.STRING))
 *     .implement(HostFunction.of(String.class, String.class,
 *         (text, separator) -> List.of(text.split(Pattern.quote(separator)))));
 * }</pre>
 *
 * <p>A kind passes its implementations to every policy it compiles ({@link Kind#compile(
 * dev.svc.engine.Engine, List, KindCompileOptions) Kind.compile}). Leave the implementation out to
 * only declare the signature, for another host or a stub.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe, as far as the implementation is.
 *
 * @param params the parameter types in order; empty for none
 * @param result the result type
 * @param implementation the Java implementation; empty when the kind only declares the function
 */
public record FnDecl(List<Type> params, Type result, Optional<HostFunction> implementation) {

  /**
   * Copies the parameters; no part may be null.
   *
   * @param params the parameter types in order
   * @param result the result type
   * @param implementation the Java implementation, or empty
   */
  public FnDecl {
    params = List.copyOf(params);
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(implementation, "implementation");
  }

  /**
   * A signature without an implementation.
   *
   * @param params the parameter types in order; empty for none
   * @param result the result type
   */
  public FnDecl(List<Type> params, Type result) {
    this(params, result, Optional.empty());
  }

  /**
   * This signature with its implementation, which every evaluation of the kind's policies calls.
   *
   * @param implementation the function, such as one made with {@link HostFunction#of(Class,
   *     HostFunction.Fn1)}
   * @return a new declaration; this one is unchanged
   */
  public FnDecl implement(HostFunction implementation) {
    return new FnDecl(
        params, result, Optional.of(Objects.requireNonNull(implementation, "implementation")));
  }
}
