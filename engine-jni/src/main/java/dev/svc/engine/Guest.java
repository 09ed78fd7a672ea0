package dev.svc.engine;

import dev.svc.engine.internal.GuestTrap;
import java.time.Duration;
import java.util.Optional;

/**
 * The running module below an {@link Instance}: inside this JVM through the bridge ({@link
 * NativeGuest}), or in an engine host process of its own ({@link ProcessGuest}). Both answer the
 * same entries with the same failures, so the instance above treats them alike.
 *
 * <p>Every entry takes the call's hard deadline (empty = none) and fails with a {@link GuestTrap}
 * when the module stopped (trapped, exited, ran out of fuel or past its deadline, or its host
 * process died); after that the guest is stopped for good. A {@code WasmError} means the entry
 * could not run and the guest works on.
 *
 * <p><b>Thread safety:</b> not thread-safe; the instance's lock serialises every use.
 */
interface Guest {

  /** Runs the module's start function. */
  void initialize(Optional<Duration> deadline);

  /** The ABI version the module speaks. */
  int abiVersion(Optional<Duration> deadline);

  /**
   * One {@code engine_call} round trip with the instance's host calls answered while it runs.
   *
   * @return the module's response, or null when the module had no memory for the request (it
   *     works on)
   */
  byte[] call(byte[] request, Optional<Duration> deadline, long fuel);

  /** Whether the guest is stopped (a trap latched it, or its process is gone). */
  boolean isStopped();

  /** The module's captured stderr: its first and last lines. */
  byte[] stderr();

  /** The size of the module's linear memory in bytes (0 once its process is gone). */
  long memorySize();

  /** Frees the guest (ends its process). */
  void free();
}
