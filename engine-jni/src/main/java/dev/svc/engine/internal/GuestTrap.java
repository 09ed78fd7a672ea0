package dev.svc.engine.internal;

/**
 * The guest stopped abnormally during a call into it: a wasm trap, an epoch interrupt, fuel
 * exhaustion, {@code proc_exit}, a host-call handler failure, or a response outside its memory.
 *
 * <p>Thrown by the {@link Native} methods that enter the guest. When it is thrown the bridge has
 * already latched the instance as stopped: every later guest call on it throws
 * {@link IllegalStateException} without running guest code. {@link #getMessage()} is wasmtime's
 * text (trap message with backtrace, or error text), or the bridge's own for the kinds it detects.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class GuestTrap extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Why the guest stopped. The ordinals are part of the bridge's contract: {@code svc_failure.h}
   * numbers them the same way.
   */
  public enum Kind {
    /** Any other trap or wasmtime error (integer divide by zero, bad indirect call, …). */
    OTHER,
    /** The epoch deadline passed (the hard deadline). */
    INTERRUPT,
    /** The call used up the fuel it was given. */
    OUT_OF_FUEL,
    /**
     * An out-of-bounds or misaligned memory access, a failed allocation for a host-call reply, or
     * any other trap while the memory could not grow by another page (the guest's allocator gave up).
     */
    MEMORY,
    /** The guest called WASI {@code proc_exit}; see {@link #exitCode()}. */
    EXIT,
    /** The wasm stack ({@code max_wasm_stack}) was exhausted. */
    STACK_OVERFLOW,
    /** An {@code unreachable} instruction ran (a Rust panic that aborts, for example). */
    UNREACHABLE,
    /**
     * The {@link HostCallHandler} threw (that exception propagates instead of this one), returned
     * null, or the instance has no handler.
     */
    HOST_EXCEPTION,
    /** The guest handed back a pointer and length outside its own memory. */
    BAD_RESPONSE,
    /**
     * The engine host process that ran the guest died (a signal, an exit); the message says how.
     * Never produced by the bridge.
     */
    PROCESS_DIED
  }

  private static final Kind[] KINDS = Kind.values();

  private final Kind kind;
  private final int exitCode;

  /**
   * Creates a trap.
   *
   * @param kind why the guest stopped
   * @param exitCode the {@code proc_exit} code for {@link Kind#EXIT}, otherwise 0
   * @param message what happened, as wasmtime or the bridge put it
   */
  public GuestTrap(Kind kind, int exitCode, String message) {
    super(message);
    this.kind = java.util.Objects.requireNonNull(kind, "kind");
    this.exitCode = exitCode;
  }

  /**
   * A trap an engine host reported, which knows kinds by the bridge's ordinals (an unknown one is
   * {@link Kind#OTHER}).
   */
  public static GuestTrap of(int kindOrdinal, int exitCode, String message) {
    return new GuestTrap(kindOrdinal, exitCode, message);
  }

  /** Called by the bridge, which knows kinds by ordinal. */
  GuestTrap(int kindOrdinal, int exitCode, String message) {
    this(kindOrdinal >= 0 && kindOrdinal < KINDS.length ? KINDS[kindOrdinal] : Kind.OTHER, exitCode, message);
  }

  /** Why the guest stopped. */
  public Kind kind() {
    return kind;
  }

  /** The guest's {@code proc_exit} code; meaningful only for {@link Kind#EXIT}. */
  public int exitCode() {
    return exitCode;
  }
}
