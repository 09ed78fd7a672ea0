package dev.svc.engine;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * A host function the kind declares ({@code fn split(string, string) -> list<string>}), implemented
 * in Java. Give it to {@link CompileOptions#withFunction(String, HostFunction)}; every evaluation
 * of the compiled policy calls it on the thread that called {@link Policy#eval(Object)}.
 *
 * <p>The raw form takes the call's arguments as JSON values, in declaration order and encoded as
 * the eval record encodes payload values: durations as the engine prints them ({@code "1h30m"},
 * {@code "-15m"}, {@code "1ms+500000ns"}; {@link Durations#parseValue} reads them), timestamps in
 * RFC 3339, enum values by name, structs as objects. It returns the result as JSON; the engine
 * reads it as a value of the declared result type, and a result of another type fails the call.
 * The typed forms {@link #of(Class, Fn1)} and friends decode the arguments with Jackson and encode
 * the result ({@link java.time.Duration} in Sigil syntax, {@link java.time.Instant} in RFC 3339):
 *
 * <pre>{@code
 * CompileOptions options = CompileOptions.defaults()
 *     .withFunction("split", HostFunction.of(String.class, String.class,
 *         (text, separator) -> List.of(text.split(Pattern.quote(separator)))));
 * }</pre>
 *
 * <p><b>Failures:</b> throwing fails the call; the evaluation then ends with a runtime error
 * ({@link EvalResult#error()}) whose message quotes the exception's message, as in {@code
 * host function split failed: label too long}. It never throws out of {@code eval}. Only a
 * {@link VirtualMachineError} escapes: it stops the instance. A host function must not call back
 * into the engine running it (that call fails), and must return promptly: it runs inside the
 * evaluation's deadline.
 */
@FunctionalInterface
public interface HostFunction {

  /**
   * Runs one call.
   *
   * @param args the arguments, one JSON value per declared parameter
   * @return the result, a JSON value of the declared result type ({@code null} is JSON null)
   * @throws Exception to fail the call with the exception's message
   */
  JsonNode call(List<JsonNode> args) throws Exception;

  /**
   * The Java side of a typed host function of no arguments.
   *
   * @param <R> the result's type
   */
  @FunctionalInterface
  interface Fn0<R> {
    /**
     * Computes the result.
     *
     * @return the result, encoded with Jackson
     * @throws Exception to fail the call with the exception's message
     */
    R apply() throws Exception;
  }

  /**
   * The Java side of a typed host function of one argument.
   *
   * @param <A> the argument's type
   * @param <R> the result's type
   */
  @FunctionalInterface
  interface Fn1<A, R> {
    /**
     * Computes the result.
     *
     * @param a the argument
     * @return the result, encoded with Jackson
     * @throws Exception to fail the call with the exception's message
     */
    R apply(A a) throws Exception;
  }

  /**
   * The Java side of a typed host function of two arguments.
   *
   * @param <A> the first argument's type
   * @param <B> the second argument's type
   * @param <R> the result's type
   */
  @FunctionalInterface
  interface Fn2<A, B, R> {
    /**
     * Computes the result.
     *
     * @param a the first argument
     * @param b the second argument
     * @return the result, encoded with Jackson
     * @throws Exception to fail the call with the exception's message
     */
    R apply(A a, B b) throws Exception;
  }

  /**
   * The Java side of a typed host function of three arguments.
   *
   * @param <A> the first argument's type
   * @param <B> the second argument's type
   * @param <C> the third argument's type
   * @param <R> the result's type
   */
  @FunctionalInterface
  interface Fn3<A, B, C, R> {
    /**
     * Computes the result.
     *
     * @param a the first argument
     * @param b the second argument
     * @param c the third argument
     * @return the result, encoded with Jackson
     * @throws Exception to fail the call with the exception's message
     */
    R apply(A a, B b, C c) throws Exception;
  }

  /**
   * The Java side of a typed host function of four arguments.
   *
   * @param <A> the first argument's type
   * @param <B> the second argument's type
   * @param <C> the third argument's type
   * @param <D> the fourth argument's type
   * @param <R> the result's type
   */
  @FunctionalInterface
  interface Fn4<A, B, C, D, R> {
    /**
     * Computes the result.
     *
     * @param a the first argument
     * @param b the second argument
     * @param c the third argument
     * @param d the fourth argument
     * @return the result, encoded with Jackson
     * @throws Exception to fail the call with the exception's message
     */
    R apply(A a, B b, C c, D d) throws Exception;
  }

  /**
   * A typed host function of no arguments.
   *
   * @param <R> the result's type
   * @param fn computes the result, which Jackson encodes
   * @return the host function; a call with arguments fails with {@code expected 0 arguments, got 1}
   */
  static <R> HostFunction of(Fn0<R> fn) {
    Objects.requireNonNull(fn, "fn");
    return args -> {
      TypedCalls.arity(args, 0);
      return TypedCalls.result(fn.apply());
    };
  }

  /**
   * A typed host function of one argument.
   *
   * @param <A> the argument's type
   * @param <R> the result's type
   * @param a the argument's Java type, decoded from JSON with Jackson
   * @param fn computes the result, which Jackson encodes
   * @return the host function; an argument that doesn't decode fails the call with {@code
   *     argument 1: …}
   */
  static <A, R> HostFunction of(Class<A> a, Fn1<A, R> fn) {
    Objects.requireNonNull(fn, "fn");
    return args -> {
      TypedCalls.arity(args, 1);
      return TypedCalls.result(fn.apply(TypedCalls.arg(args, 0, a)));
    };
  }

  /**
   * A typed host function of two arguments.
   *
   * @param <A> the first argument's type
   * @param <B> the second argument's type
   * @param <R> the result's type
   * @param a the first argument's Java type
   * @param b the second argument's Java type
   * @param fn computes the result, which Jackson encodes
   * @return the host function
   */
  static <A, B, R> HostFunction of(Class<A> a, Class<B> b, Fn2<A, B, R> fn) {
    Objects.requireNonNull(fn, "fn");
    return args -> {
      TypedCalls.arity(args, 2);
      return TypedCalls.result(fn.apply(TypedCalls.arg(args, 0, a), TypedCalls.arg(args, 1, b)));
    };
  }

  /**
   * A typed host function of three arguments.
   *
   * @param <A> the first argument's type
   * @param <B> the second argument's type
   * @param <C> the third argument's type
   * @param <R> the result's type
   * @param a the first argument's Java type
   * @param b the second argument's Java type
   * @param c the third argument's Java type
   * @param fn computes the result, which Jackson encodes
   * @return the host function
   */
  static <A, B, C, R> HostFunction of(Class<A> a, Class<B> b, Class<C> c, Fn3<A, B, C, R> fn) {
    Objects.requireNonNull(fn, "fn");
    return args -> {
      TypedCalls.arity(args, 3);
      return TypedCalls.result(
          fn.apply(TypedCalls.arg(args, 0, a), TypedCalls.arg(args, 1, b), TypedCalls.arg(args, 2, c)));
    };
  }

  /**
   * A typed host function of four arguments.
   *
   * @param <A> the first argument's type
   * @param <B> the second argument's type
   * @param <C> the third argument's type
   * @param <D> the fourth argument's type
   * @param <R> the result's type
   * @param a the first argument's Java type
   * @param b the second argument's Java type
   * @param c the third argument's Java type
   * @param d the fourth argument's Java type
   * @param fn computes the result, which Jackson encodes
   * @return the host function
   */
  static <A, B, C, D, R> HostFunction of(
      Class<A> a, Class<B> b, Class<C> c, Class<D> d, Fn4<A, B, C, D, R> fn) {
    Objects.requireNonNull(fn, "fn");
    return args -> {
      TypedCalls.arity(args, 4);
      return TypedCalls.result(
          fn.apply(
              TypedCalls.arg(args, 0, a),
              TypedCalls.arg(args, 1, b),
              TypedCalls.arg(args, 2, c),
              TypedCalls.arg(args, 3, d)));
    };
  }
}
