package dev.svc.engine.internal;

/**
 * Answers the guest's {@code engine.host_call(ptr, len)}.
 *
 * <p>The bridge calls it on the thread that is running the guest call (inside
 * {@link Native#call} and friends): the caller's own thread, or the instance's big-stack helper
 * thread when the caller's stack was too short (see {@link Native}), while the caller waits. It gets
 * a fresh copy of the request bytes. The returned array is
 * copied into memory the bridge allocates in the guest with {@code engine_alloc}; the handler keeps
 * ownership of both arrays and may reuse them afterwards.
 *
 * <p>Throwing stops the instance (the guest traps with {@link GuestTrap.Kind#HOST_EXCEPTION}) and
 * the thrown exception propagates out of the {@code Native} call unchanged. Returning {@code null}
 * stops the instance with a {@link GuestTrap} of that kind. A handler must not call back into the
 * instance that runs it: such a call fails with {@link IllegalStateException} (busy).
 */
@FunctionalInterface
public interface HostCallHandler {

  /**
   * Handles one host call.
   *
   * @param request the bytes the guest passed (never null)
   * @return the reply bytes to hand back to the guest (never null)
   */
  byte[] hostCall(byte[] request);
}
