package dev.svc.engine.internal;

/**
 * The JNI bridge over the wasmtime C API ({@code native/jni}): static methods over {@code long}
 * handles and byte arrays, registered by the bridge's {@code JNI_OnLoad}.
 *
 * <p>Call {@link NativeLibrary#ensureLoaded()} before anything else here.
 *
 * <p><b>Handles.</b> Engines, modules, instance-pres and instances are {@code long} handles owned
 * by the caller, who frees each exactly once with its {@code *Free} method. A 0 handle throws
 * {@link IllegalArgumentException}; a freed handle (or one of another type) throws
 * {@link IllegalStateException}; neither can crash the JVM. Objects keep what they need alive
 * themselves: freeing an engine while its modules, pres or instances live is allowed, and so is
 * freeing a module while its pres live, or a pre while its instances live.
 *
 * <p><b>Thread safety.</b> Engines, modules and pres may be used from any number of threads at
 * once; freeing one waits until calls already using it return. An instance is used by one call at a
 * time: a concurrent or nested use (a host-call handler calling back into its own instance), and
 * freeing it while a call runs, throw {@link IllegalStateException} ("busy").
 *
 * <p><b>Native stack.</b> Guest code may use {@code maxWasmStack} bytes of native stack, and a host
 * call's Java code runs below that. A guest call runs on the calling thread when that thread has
 * enough stack left (the usual case: a default 1 MiB Java thread); otherwise the bridge runs it on
 * the instance's helper thread {@code svc-engine-stack} (8 MiB, started on first need, ended by
 * {@link #instanceFree}) while the caller waits, so a call from a thread with a tiny stack traps or
 * succeeds instead of crashing the JVM. The {@link HostCallHandler} then runs on the helper thread.
 * Deadlines, fuel, traps and exceptions behave the same on both paths. When no helper thread can be
 * started, the call throws {@link OutOfMemoryError} without entering the guest.
 *
 * <p><b>Guest calls</b> ({@link #initialize}, {@link #abiVersion}, {@link #call}, {@link #alloc},
 * {@link #free}, {@link #callRaw}) take a deadline in epoch ticks (a tick is one
 * {@link #engineIncrementEpoch} call; {@code <= 0} = no deadline) and a fuel budget ({@code < 0} =
 * unlimited; ignored unless the engine meters fuel), both applied afresh on every call. A call that
 * traps throws {@link GuestTrap} and latches the instance as stopped; later guest calls on it throw
 * {@link IllegalStateException} ("the instance stopped earlier") without entering the guest. A call
 * on a module that lacks the export it needs throws {@link WasmError}.
 */
public final class Native {

  /** The bridge version this class is written against; {@link #bridgeVersion()} must equal it. */
  public static final int BRIDGE_VERSION = 3;

  /** {@code deadlineTicks} for a call without a hard deadline. */
  public static final long NO_DEADLINE = 0;

  /** {@code fuel} for a call without a fuel limit. */
  public static final long UNLIMITED_FUEL = -1;

  private Native() {}

  /** The bridge's own version; {@link NativeLibrary} compares it with {@link #BRIDGE_VERSION}. */
  static native int bridgeVersion();

  /**
   * Why the bridge's load-time self-test rejected the wasmtime library beside it, or null when it
   * passed. {@link NativeLibrary} turns a non-null answer into a load failure.
   */
  static native String loadProblem();

  /**
   * The CPU the calling thread runs on now ({@code sched_getcpu}; -1 when the kernel can't say).
   * {@link HostChannel} yields its spin to a host on the same CPU.
   */
  public static native int currentCpu();

  // ---- engines ---------------------------------------------------------------------------------

  /**
   * Creates a wasmtime engine. Caller frees it with {@link #engineFree}.
   *
   * @param epochInterruption compile deadline checks into guest code (needed for deadlines)
   * @param fuel meter fuel (needed for fuel limits; a few percent slower)
   * @param wasmExceptions enable the wasm exception-handling proposal
   * @param maxWasmStack bytes of native stack guest code may use; 0 = wasmtime's default (512 KiB);
   *     at most 1 GiB
   * @param poolingSlots 0 = allocate instances on demand; 1 to 1000 = the pooling allocator with that
   *     many instance, memory and table slots (instantiation in microseconds, virtual memory
   *     reserved up front)
   * @param poolingMaxMemory with pooling, the largest memory a slot holds in bytes (0 = wasmtime's
   *     default, at most 4 GiB)
   * @return the engine handle
   * @throws IllegalArgumentException for an option out of range
   * @throws IllegalStateException when the wasmtime library failed the bridge's self-test
   */
  public static native long engineNew(
      boolean epochInterruption,
      boolean fuel,
      boolean wasmExceptions,
      long maxWasmStack,
      int poolingSlots,
      long poolingMaxMemory);

  /** Advances the engine's epoch by one tick. Thread-safe and cheap: meant for a ticker thread. */
  public static native void engineIncrementEpoch(long engine);

  /** Frees an engine handle. Modules, pres and instances made from it keep working. */
  public static native void engineFree(long engine);

  // ---- modules ---------------------------------------------------------------------------------

  /**
   * Compiles WebAssembly bytes (the array is copied). Caller frees the module with
   * {@link #moduleFree}.
   *
   * @throws WasmError with wasmtime's message when the bytes don't compile
   * @throws NullPointerException when {@code wasm} is null
   */
  public static native long moduleCompile(long engine, byte[] wasm);

  /**
   * Serializes a compiled module's native code into a new array the caller owns. Only an engine
   * with the same wasmtime version and configuration can load it again.
   */
  public static native byte[] moduleSerialize(long module);

  /**
   * Loads a module from {@link #moduleSerialize} output (the array is copied). Caller frees it with
   * {@link #moduleFree}. The bytes must come from {@code moduleSerialize}: wasmtime checks version
   * and configuration, but trusts the code itself.
   *
   * @throws WasmError when wasmtime refuses the artifact (garbage, other version or config)
   */
  public static native long moduleDeserialize(long engine, byte[] artifact);

  /**
   * Like {@link #moduleDeserialize}, memory-mapping a file instead (milliseconds for large
   * modules). The file must not change while the module is in use.
   *
   * @throws WasmError when the file is missing, unreadable or refused
   */
  public static native long moduleDeserializeFile(long engine, String path);

  /** The module's imports, each {@code "module\u0000name\u0000kind"} (kind: func, global, table, memory, tag). */
  public static native String[] moduleImports(long module);

  /** The module's exports, each {@code "name\u0000kind"}. */
  public static native String[] moduleExports(long module);

  /** Frees a module handle. Pres made from it keep working. */
  public static native void moduleFree(long module);

  // ---- instance-pres ---------------------------------------------------------------------------

  /**
   * Links a module against WASI preview 1 and {@code engine.host_call} and checks the types of the
   * ABI exports it has ({@code memory}, {@code engine_alloc}, {@code engine_free},
   * {@code engine_call}, {@code engine_abi_version}, {@code _initialize}). Caller frees the pre with
   * {@link #instancePreFree}.
   *
   * @throws WasmError when an import is unresolved or an ABI export has the wrong type
   * @throws IllegalArgumentException when the module was compiled by another engine
   */
  public static native long instancePreNew(long engine, long module);

  /** Frees an instance-pre handle. Instances made from it keep working. */
  public static native void instancePreFree(long pre);

  // ---- instances -------------------------------------------------------------------------------

  /**
   * Instantiates a pre in a new store: no WASI args, environment or preopens, empty stdin, stdout
   * and stderr captured in bounded buffers. Does not call {@code _initialize}. Caller frees the
   * instance with {@link #instanceFree}.
   *
   * @param maxMemoryBytes cap on linear memory ({@code < 0} = no cap beyond 4 GiB); a
   *     {@code memory.grow} past it returns -1 to the guest instead of trapping
   * @param handler answers {@code engine.host_call}; the bridge keeps a global reference until the
   *     instance is freed; null = host calls stop the instance
   * @throws WasmError when wasmtime can't instantiate (e.g. the pooling allocator is full)
   * @throws GuestTrap when the module's start function traps
   */
  public static native long instanceNew(long pre, long maxMemoryBytes, HostCallHandler handler);

  /** Frees an instance and its store. */
  public static native void instanceFree(long instance);

  /**
   * What the guest wrote to stderr (fd 2), bounded: the first 1024 bytes ever written and the last
   * 3072 after them, joined by {@code "\n[...]\n"} when bytes in between were dropped. A new array.
   */
  public static native byte[] instanceStderr(long instance);

  /** The same bounded capture for stdout (fd 1). */
  public static native byte[] instanceStdout(long instance);

  /** The size of the instance's linear memory in bytes (0 without a {@code memory} export). */
  public static native long instanceMemorySize(long instance);

  /** Whether the instance is latched as stopped. Never blocks, never enters the guest. */
  public static native boolean isStopped(long instance);

  // ---- guest calls -----------------------------------------------------------------------------

  /** Calls {@code _initialize} if the module exports it (otherwise does nothing). */
  public static native void initialize(long instance, long deadlineTicks, long fuel);

  /** Calls {@code engine_abi_version}. */
  public static native int abiVersion(long instance, long deadlineTicks, long fuel);

  /**
   * One request/response round trip: copy the request into the instance's kept request buffer
   * ({@code engine_alloc}'d once, and again, the old one freed, when a request outgrows it; a request
   * over 64 KiB gets a buffer of its own, freed after the call), {@code engine_call}, bounds-check
   * the response against the current memory (before allocating any Java array), copy it out into a
   * new array, {@code engine_free(response)}. A call that fits the kept buffer enters the module
   * twice instead of four times.
   *
   * @return the response bytes, or null when {@code engine_alloc} returned 0 for a non-empty
   *     request (the module is out of memory; the instance is not stopped and nothing was written)
   * @throws GuestTrap on a trap, or {@link GuestTrap.Kind#BAD_RESPONSE} when the response lies
   *     outside memory
   * @throws NullPointerException when {@code request} is null
   */
  public static native byte[] call(long instance, byte[] request, long deadlineTicks, long fuel);

  /** Calls {@code engine_alloc(size)} and returns the guest address (as unsigned 32 bits). */
  public static native int alloc(long instance, int size, long deadlineTicks, long fuel);

  /** Calls {@code engine_free(ptr, len)}. */
  public static native void free(long instance, int ptr, int len, long deadlineTicks, long fuel);

  /** Calls {@code engine_call(ptr, len)} and returns the packed {@code (ptr << 32) | len}. */
  public static native long callRaw(long instance, int ptr, int len, long deadlineTicks, long fuel);

  /**
   * Copies bytes into linear memory at {@code ptr} (unsigned 32-bit address). Works on stopped
   * instances too.
   *
   * @throws IndexOutOfBoundsException when the range does not fit in memory
   */
  public static native void memoryWrite(long instance, int ptr, byte[] bytes);

  /**
   * Copies {@code len} bytes of linear memory at {@code ptr} (unsigned) into a new array. Works on
   * stopped instances too.
   *
   * @throws IndexOutOfBoundsException when the range does not fit in memory or {@code len < 0}
   */
  public static native byte[] memoryRead(long instance, int ptr, int len);
}
