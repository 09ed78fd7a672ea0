package dev.svc.engine.kind;

import java.util.List;
import java.util.Objects;

/**
 * A host function's signature, {@code fn split(string, string) -> list<string>} in a kind file.
 * Policies call it by position with exactly these parameter types. The result can't be optional.
 *
 * <pre>{@code
 * new FnDecl(List.of(Type.STRING, Type.STRING), Type.list(Type.STRING))
 * }</pre>
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param params the parameter types in order; empty for none
 * @param result the result type
 */
public record FnDecl(List<Type> params, Type result) {

  /**
   * Copies the parameters; neither part may be null.
   *
   * @param params the parameter types in order
   * @param result the result type
   */
  public FnDecl {
    params = List.copyOf(params);
    Objects.requireNonNull(result, "result");
  }
}
