package dev.svc.engine.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Shared helpers for the bridge tests: natives, the WAT fixtures, engines with the usual options. */
final class BridgeFixture {

  static final long NO_DEADLINE = Native.NO_DEADLINE;
  static final long UNLIMITED = Native.UNLIMITED_FUEL;

  private BridgeFixture() {}

  static void loadNatives() {
    NativeLibrary.ensureLoaded();
  }

  /** The bytes of {@code src/test/wat/<name>.wat}, compiled by the test build. */
  static byte[] wasm(String name) {
    try (InputStream in = BridgeFixture.class.getResourceAsStream("/wat/" + name + ".wasm")) {
      if (in == null) {
        throw new IllegalStateException("no test module " + name + ".wasm on the test classpath");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** An engine, module and pre for one WAT fixture; frees all three on close. */
  static final class Loaded implements AutoCloseable {
    final long engine;
    final long module;
    final long pre;

    Loaded(String wat, boolean epoch, boolean fuel, long maxWasmStack, int poolingSlots) {
      loadNatives();
      engine = Native.engineNew(epoch, fuel, false, maxWasmStack, poolingSlots, 0);
      module = Native.moduleCompile(engine, wasm(wat));
      pre = Native.instancePreNew(engine, module);
    }

    /** The {@code bridge_abi} fixture shared by every test class in the JVM and never freed. */
    static Loaded sharedAbi() {
      return SharedAbi.ABI;
    }

    private static final class SharedAbi {
      static final Loaded ABI = new Loaded("bridge_abi", true, true, 0, 0);
    }

    /** A new, initialized instance with no memory cap; the caller frees it. */
    long instance(HostCallHandler handler) {
      return instance(-1, handler);
    }

    long instance(long maxMemory, HostCallHandler handler) {
      long instance = Native.instanceNew(pre, maxMemory, handler);
      Native.initialize(instance, NO_DEADLINE, UNLIMITED);
      return instance;
    }

    @Override
    public void close() {
      Native.instancePreFree(pre);
      Native.moduleFree(module);
      Native.engineFree(engine);
    }
  }
}
