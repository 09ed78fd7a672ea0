package dev.svc.engine.internal;

/**
 * wasmtime refused something that is not a guest trap: bytes that don't compile, a precompiled
 * artifact it won't load, a module it can't link (an unresolved import), an export with the wrong
 * type, or an export the operation needs that the module lacks. The message is wasmtime's text
 * (or the bridge's, for the export checks); callers add what they were doing.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class WasmError extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** Creates the error with wasmtime's (or the bridge's) message. */
  public WasmError(String message) {
    super(message);
  }
}
