package dev.svc.engine;

import dev.svc.engine.internal.EpochTicker;
import dev.svc.engine.internal.ModuleCache;
import dev.svc.engine.internal.Native;
import dev.svc.engine.internal.NativeLibrary;
import dev.svc.engine.internal.WasmError;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * The engine module ({@code engine.wasm}) compiled to native code by wasmtime, ready to start
 * {@link Engine} instances from. Compiling is the expensive step, so compile once and share the
 * module: each instance then costs microseconds.
 *
 * <p>Loading checks that the bytes are an engine reactor this library can run: every import is one
 * this library provides, and every export it calls is there.
 *
 * <p><b>Lifecycle:</b> close the module when done. Instances started from it keep it alive until they
 * are closed themselves, so closing early is safe.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class EngineModule implements AutoCloseable {

  /**
   * The version of the engine's JSON ABI (spec/module-abi.md) this library speaks. Every instance
   * asks its module for {@code engine_abi_version()} when it starts, and {@link Engine#create} refuses
   * a module that reports another version.
   */
  public static final int ABI_VERSION = 1;

  private static final String BUNDLED = "engine.wasm";
  private static final String WASI = "wasi_snapshot_preview1";
  // The WASI preview 1 functions the bridge links; a module importing others is refused up front.
  private static final Set<String> WASI_FUNCTIONS =
      Set.of(
          "args_get", "args_sizes_get", "clock_time_get", "environ_get", "environ_sizes_get",
          "fd_close", "fd_fdstat_get", "fd_fdstat_set_flags", "fd_filestat_get",
          "fd_prestat_dir_name", "fd_prestat_get", "fd_read", "fd_write", "path_filestat_get",
          "path_open", "poll_oneoff", "proc_exit", "random_get", "sched_yield");
  private static final List<String> REQUIRED_EXPORTS =
      List.of("memory", "engine_abi_version", "engine_alloc", "engine_free", "engine_call");
  // The engine's deepest recursion is bounded inside the module; this is wasmtime's own guard.
  private static final long MAX_WASM_STACK = 512 * 1024;

  private final ModuleConfig config;
  private final boolean precompiled;
  private final long engine;
  private final long module;
  private final long instancePre;
  private final EpochTicker ticker;
  // One hold for the module itself plus one per live instance: natives go when the last one does.
  private final AtomicInteger holds = new AtomicInteger(1);
  private final AtomicBoolean closed = new AtomicBoolean();

  private EngineModule(ModuleConfig config, boolean precompiled, Loader loader) {
    this.config = Objects.requireNonNull(config, "config");
    this.precompiled = precompiled;
    loadNatives();
    long engineHandle = Native.engineNew(true, config.fuel(), true, MAX_WASM_STACK, 0, 0);
    long moduleHandle = 0;
    try {
      moduleHandle = loader.load(engineHandle);
      checkImports(moduleHandle);
      checkExports(moduleHandle);
      this.instancePre = link(engineHandle, moduleHandle);
    } catch (RuntimeException | Error e) {
      if (moduleHandle != 0) {
        Native.moduleFree(moduleHandle);
      }
      Native.engineFree(engineHandle);
      throw e;
    }
    this.engine = engineHandle;
    this.module = moduleHandle;
    this.ticker = new EpochTicker(engineHandle);
  }

  /** Turns bytes or a file into a native module handle on the given wasmtime engine. */
  @FunctionalInterface
  private interface Loader {
    long load(long engine);
  }

  /**
   * The engine module this library ships, with the default configuration; see
   * {@link #bundled(ModuleConfig)}.
   *
   * @return the compiled module; the caller closes it
   * @throws EngineException if the native libraries can't be loaded on this platform, or this copy
   *     of the library holds no engine module
   */
  public static EngineModule bundled() {
    return bundled(ModuleConfig.defaults());
  }

  /**
   * The engine module this library ships. The first load on a machine compiles it and keeps the
   * native code in a cache directory ({@link ModuleCache}); later loads, in any JVM, map that file
   * and take milliseconds. A cache that can't be read or written only costs the compile.
   *
   * @param config how to compile the module
   * @return the compiled module; the caller closes it
   * @throws EngineException if the native libraries can't be loaded on this platform, or this copy
   *     of the library holds no engine module
   */
  public static EngineModule bundled(ModuleConfig config) {
    Objects.requireNonNull(config, "config");
    byte[] wasm = bundledBytes();
    Optional<Path> cached = ModuleCache.fileFor(wasm, configKey(config));
    if (cached.isPresent() && Files.isRegularFile(cached.get())) {
      try {
        return fromPrecompiledFile(cached.get(), config);
      } catch (EngineException refused) {
        // Another wasmtime or a damaged file: compile and replace it below.
      }
    }
    EngineModule module = new EngineModule(config, false, engine -> compile(engine, wasm));
    cached.ifPresent(file -> storeQuietly(file, module));
    return module;
  }

  /**
   * The module in {@code path}, with the default configuration.
   *
   * @param path an {@code engine.wasm} file
   * @return the compiled module; the caller closes it
   * @throws EngineException if the file can't be read or compiled, or isn't an engine reactor
   */
  public static EngineModule fromFile(Path path) {
    return fromFile(path, ModuleConfig.defaults());
  }

  /**
   * The module in {@code path}, compiled with {@code config}.
   *
   * @param path an {@code engine.wasm} file
   * @param config how to compile the module
   * @return the compiled module; the caller closes it
   * @throws EngineException if the file can't be read or compiled, or isn't an engine reactor (an
   *     import this library doesn't provide, an export it calls missing)
   */
  public static EngineModule fromFile(Path path, ModuleConfig config) {
    Objects.requireNonNull(path, "path");
    byte[] wasm;
    try {
      wasm = Files.readAllBytes(path);
    } catch (IOException e) {
      throw unreadable(path, e);
    }
    return fromBytes(wasm, config);
  }

  /**
   * The module at {@code url}, with the default configuration.
   *
   * @param url where an {@code engine.wasm} is: a file, a classpath resource ({@code
   *     getClass().getResource("engine.wasm")}), or anything else {@link URL#openStream()} reads
   * @return the compiled module; the caller closes it
   * @throws EngineException if the URL can't be read, or its bytes don't compile or aren't an engine
   *     reactor
   */
  public static EngineModule fromUrl(URL url) {
    return fromUrl(url, ModuleConfig.defaults());
  }

  /**
   * The module at {@code url}, compiled with {@code config}.
   *
   * @param url where an {@code engine.wasm} is: a file, a classpath resource, or anything else
   *     {@link URL#openStream()} reads
   * @param config how to compile the module
   * @return the compiled module; the caller closes it
   * @throws EngineException if the URL can't be read, or its bytes don't compile or aren't an engine
   *     reactor (an import this library doesn't provide, an export it calls missing)
   */
  public static EngineModule fromUrl(URL url, ModuleConfig config) {
    Objects.requireNonNull(url, "url");
    byte[] wasm;
    try (InputStream in = url.openStream()) {
      wasm = in.readAllBytes();
    } catch (IOException e) {
      throw unreadable(url, e);
    }
    return fromBytes(wasm, config);
  }

  /**
   * The module whose bytes are {@code wasm}, with the default configuration.
   *
   * @param wasm the module's bytes; not kept
   * @return the compiled module; the caller closes it
   * @throws EngineException if the bytes don't compile or aren't an engine reactor
   */
  public static EngineModule fromBytes(byte[] wasm) {
    return fromBytes(wasm, ModuleConfig.defaults());
  }

  /**
   * The module whose bytes are {@code wasm}, compiled with {@code config}.
   *
   * @param wasm the module's bytes; not kept
   * @param config how to compile the module
   * @return the compiled module; the caller closes it
   * @throws EngineException if the bytes don't compile or aren't an engine reactor (an import this
   *     library doesn't provide, an export it calls missing)
   */
  public static EngineModule fromBytes(byte[] wasm, ModuleConfig config) {
    Objects.requireNonNull(wasm, "wasm");
    // No defensive copy: the bridge copies the bytes, and compiling finishes before this returns.
    return new EngineModule(config, false, engine -> compile(engine, wasm));
  }

  /**
   * A module from {@link #precompile()} output: no compiling, so it loads in milliseconds.
   *
   * @param artifact what {@link #precompile()} returned; not kept
   * @param config the configuration the artifact was compiled with
   * @return the module; the caller closes it
   * @throws EngineException if the artifact comes from another library or wasmtime version, another
   *     machine architecture or another {@code config}, or isn't an artifact at all
   */
  public static EngineModule fromPrecompiled(byte[] artifact, ModuleConfig config) {
    Objects.requireNonNull(artifact, "artifact");
    return new EngineModule(config, true, engine -> deserialize(() -> Native.moduleDeserialize(engine, artifact)));
  }

  /**
   * Like {@link #fromPrecompiled(byte[], ModuleConfig)}, memory-mapping {@code path}; the file must
   * not change while the module is in use (replace it by renaming a new file over it).
   *
   * @param path a file holding what {@link #precompile()} returned
   * @param config the configuration the artifact was compiled with
   * @return the module; the caller closes it
   * @throws EngineException if the file is missing or unreadable, or its artifact is refused as in
   *     {@link #fromPrecompiled(byte[], ModuleConfig)}
   */
  public static EngineModule fromPrecompiledFile(Path path, ModuleConfig config) {
    Objects.requireNonNull(path, "path");
    String file = path.toAbsolutePath().toString();
    return new EngineModule(config, true, engine -> deserialize(() -> Native.moduleDeserializeFile(engine, file)));
  }

  /**
   * How this module was compiled.
   *
   * @return the configuration it was loaded with
   */
  public ModuleConfig config() {
    return config;
  }

  /**
   * Whether this module was loaded from precompiled native code rather than compiled.
   *
   * @return true for {@link #fromPrecompiled} and {@link #fromPrecompiledFile}, and for a
   *     {@link #bundled()} module found in the cache
   */
  public boolean isPrecompiled() {
    return precompiled;
  }

  /**
   * The module's native code for this machine, wasmtime version and configuration, to load later
   * with {@link #fromPrecompiled} without compiling.
   *
   * @return a new array with the serialized native code (megabytes)
   * @throws IllegalStateException if the module is closed
   */
  public byte[] precompile() {
    if (closed.get()) {
      throw new IllegalStateException("the EngineModule is closed; load it again to precompile it");
    }
    return Native.moduleSerialize(module);
  }

  /** Releases the compiled code once every instance started from it is closed. Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      release();
    }
  }

  /** Takes a hold for a new instance and returns the native instance template to start it from. */
  long acquire() {
    int current;
    do {
      current = holds.get();
      if (current == 0 || closed.get()) {
        throw new IllegalStateException("the EngineModule is closed; load it again to start instances");
      }
    } while (!holds.compareAndSet(current, current + 1));
    return instancePre;
  }

  /** Gives back a hold taken by {@link #acquire()} (or the module's own, on close). */
  void release() {
    if (holds.decrementAndGet() == 0) {
      ticker.close();
      Native.instancePreFree(instancePre);
      Native.moduleFree(module);
      Native.engineFree(engine);
    }
  }

  /** Advances this module's epoch while calls with a hard deadline run on its instances. */
  EpochTicker ticker() {
    return ticker;
  }

  private static byte[] bundledBytes() {
    try (InputStream in = EngineModule.class.getResourceAsStream(BUNDLED)) {
      if (in == null) {
        throw new EngineException(
            "this copy of the engine library holds no " + BUNDLED,
            "use the engine-jni jar built by scripts/build, which bundles the module, or load one"
                + " with EngineModule.fromFile");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new EngineException(
          "reading the bundled " + BUNDLED + ": " + e.getMessage(),
          "the engine library's jar is damaged; rebuild or download it again", e);
    }
  }

  private static EngineException unreadable(Object where, IOException e) {
    return new EngineException(
        "reading " + where + ": " + e, "pass an engine.wasm built by native/engine/build-wasm", e);
  }

  private static String configKey(ModuleConfig config) {
    return config.fuel() ? "fuel" : "nofuel";
  }

  // The cache only saves time: a failure to write it is no reason to fail the load.
  private static void storeQuietly(Path file, EngineModule module) {
    try {
      ModuleCache.store(file, module.precompile());
    } catch (IOException | RuntimeException e) {
      // Read-only home, full disk: the next JVM compiles again.
    }
  }

  private static long deserialize(LongSupplier load) {
    try {
      return load.getAsLong();
    } catch (WasmError e) {
      throw new EngineException(
          "the precompiled module can't be loaded: " + e.getMessage(),
          "load only what EngineModule.precompile() wrote, with the same svc library version and the same"
              + " ModuleConfig, on the same kind of machine",
          e);
    }
  }

  private static void loadNatives() {
    try {
      NativeLibrary.ensureLoaded();
    } catch (NativeLibrary.LoadFailure e) {
      throw new EngineException(e.message(), e.help(), e);
    }
  }

  private static long compile(long engine, byte[] wasm) {
    try {
      return Native.moduleCompile(engine, wasm);
    } catch (WasmError e) {
      throw new EngineException(
          "the bytes aren't a WebAssembly module wasmtime can compile: " + e.getMessage(),
          "pass an engine.wasm built by native/engine/build-wasm, or use EngineModule.bundled()", e);
    }
  }

  private static void checkImports(long module) {
    for (String entry : Native.moduleImports(module)) {
      String[] parts = entry.split("\u0000", -1);
      String from = parts[0];
      String name = parts[1];
      boolean provided =
          (from.equals(WASI) && WASI_FUNCTIONS.contains(name))
              || (from.equals("engine") && name.equals("host_call"));
      if (!provided) {
        throw new EngineException(
            "the module imports " + from + "." + name + ", which this library doesn't provide",
            "build the module from the same svc revision as this library (native/engine/build-wasm)");
      }
    }
  }

  private static void checkExports(long module) {
    Set<String> exported = new HashSet<>();
    for (String entry : Native.moduleExports(module)) {
      exported.add(entry.substring(0, entry.indexOf('\u0000')));
    }
    for (String name : REQUIRED_EXPORTS) {
      if (!exported.contains(name)) {
        throw new EngineException(
            "the module doesn't export " + name + "; it isn't an engine.wasm reactor",
            "build the module as a WASI reactor with native/engine/build-wasm");
      }
    }
  }

  private static long link(long engine, long module) {
    try {
      return Native.instancePreNew(engine, module);
    } catch (WasmError e) {
      throw new EngineException(
          "the module can't be linked: " + e.getMessage(),
          "build the module from the same svc revision as this library (native/engine/build-wasm)", e);
    }
  }
}
