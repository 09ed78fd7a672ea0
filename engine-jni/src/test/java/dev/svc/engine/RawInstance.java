package dev.svc.engine;

import dev.svc.engine.internal.AbiCodec;
import dev.svc.engine.internal.Native;
import java.nio.charset.StandardCharsets;

/**
 * An instance driven through the bare ABI exports, for the rules a well-behaved host never breaks:
 * foreign pointers, lengths beyond a buffer, double frees.
 */
final class RawInstance implements AutoCloseable {

  private final EngineModule module;
  private final long instance;

  RawInstance(EngineModule module) {
    this.module = module;
    this.instance =
        Native.instanceNew(module.acquire(), -1, request -> AbiCodec.hostError("no host here"));
    Native.initialize(instance, Native.NO_DEADLINE, Native.UNLIMITED_FUEL);
  }

  int alloc(int size) {
    return Native.alloc(instance, size, Native.NO_DEADLINE, Native.UNLIMITED_FUEL);
  }

  void free(int ptr, int len) {
    Native.free(instance, ptr, len, Native.NO_DEADLINE, Native.UNLIMITED_FUEL);
  }

  void write(int ptr, String text) {
    Native.memoryWrite(instance, ptr, text.getBytes(StandardCharsets.UTF_8));
  }

  /** Calls engine_call(ptr, len), reads the response and frees it, as a host does. */
  String call(int ptr, int len) {
    long packed = Native.callRaw(instance, ptr, len, Native.NO_DEADLINE, Native.UNLIMITED_FUEL);
    int responsePtr = (int) (packed >>> 32);
    int responseLen = (int) packed;
    byte[] response = Native.memoryRead(instance, responsePtr, responseLen);
    free(responsePtr, responseLen);
    return new String(response, StandardCharsets.UTF_8);
  }

  /** A whole well-formed round trip of {@code request}. */
  String call(String request) {
    byte[] bytes = request.getBytes(StandardCharsets.UTF_8);
    int ptr = alloc(bytes.length);
    write(ptr, request);
    String response = call(ptr, bytes.length);
    free(ptr, bytes.length);
    return response;
  }

  long memorySize() {
    return Native.instanceMemorySize(instance);
  }

  @Override
  public void close() {
    Native.instanceFree(instance);
    module.release();
  }
}
