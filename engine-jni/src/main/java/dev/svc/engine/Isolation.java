package dev.svc.engine;

/**
 * Where an {@link Engine}'s instance runs. Both kinds answer every operation the same way, with
 * the same errors; they differ in what a fault of native code costs and in the price of a call.
 *
 * <p><b>Thread safety:</b> immutable.
 */
public enum Isolation {
  /**
   * Inside this JVM, through the JNI bridge: the fastest calls. wasmtime's sandbox stops
   * misbehaving WebAssembly, but a fault of native code (the bridge, wasmtime, a host function's
   * native library) takes the JVM down, and native memory growth is the JVM's.
   */
  IN_PROCESS,
  /**
   * In an engine host process of its own ({@code svc-engine-host}, shipped beside the bridge): a
   * crash, a call that blocks in native code past its hard deadline (the process is killed) or
   * native memory past its cap stops only that instance, with a {@link StoppedException} that says
   * how the process died. The host never outlives the JVM, even one killed with {@code kill -9}.
   * Each call is one frame to the host and one back through memory the two share (so is each host
   * function call); both sides spin briefly for the other's frame before sleeping on a pipe.
   */
  PROCESS
}
