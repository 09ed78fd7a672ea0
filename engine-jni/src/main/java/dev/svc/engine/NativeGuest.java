package dev.svc.engine;

import dev.svc.engine.internal.EpochTicker;
import dev.svc.engine.internal.Native;
import java.time.Duration;
import java.util.Optional;

/**
 * A guest inside this JVM: one bridge instance of the module's instance-pre, its epoch deadline
 * advanced by the module's ticker. A native crash here is a crash of the JVM; {@link ProcessGuest}
 * is the isolated kind.
 */
final class NativeGuest implements Guest {

  private final EngineModule module;
  private final long handle;

  private NativeGuest(EngineModule module, long handle) {
    this.module = module;
    this.handle = handle;
  }

  /** Instantiates {@code pre}, an instance-pre of {@code module}; throws what {@code Native.instanceNew} does. */
  static NativeGuest start(EngineModule module, long pre, Limits limits, HostCalls hostCalls) {
    return new NativeGuest(module, Native.instanceNew(pre, limits.maxMemory().orElse(-1), hostCalls));
  }

  @Override
  public void initialize(Optional<Duration> deadline) {
    underDeadline(deadline, ticks -> {
      Native.initialize(handle, ticks, Native.UNLIMITED_FUEL);
      return null;
    });
  }

  @Override
  public int abiVersion(Optional<Duration> deadline) {
    return underDeadline(deadline, ticks -> Native.abiVersion(handle, ticks, Native.UNLIMITED_FUEL));
  }

  @Override
  public byte[] call(byte[] request, Optional<Duration> deadline, long fuel) {
    return underDeadline(deadline, ticks -> Native.call(handle, request, ticks, fuel));
  }

  @Override
  public boolean isStopped() {
    return Native.isStopped(handle);
  }

  @Override
  public byte[] stderr() {
    return Native.instanceStderr(handle);
  }

  @Override
  public long memorySize() {
    return Native.instanceMemorySize(handle);
  }

  @Override
  public void free() {
    Native.instanceFree(handle);
  }

  /** Runs one guest entry with the epoch deadline {@code deadline} allows (none when empty). */
  private <T> T underDeadline(Optional<Duration> deadline, GuestEntry<T> entry) {
    if (deadline.isEmpty()) {
      return entry.run(Native.NO_DEADLINE);
    }
    EpochTicker ticker = module.ticker();
    ticker.watch();
    try {
      return entry.run(EpochTicker.ticksFor(deadline.get()));
    } finally {
      ticker.unwatch();
    }
  }

  @FunctionalInterface
  private interface GuestEntry<T> {
    T run(long deadlineTicks);
  }
}
