package dev.svc.bench;

import dev.svc.engine.Engine;
import dev.svc.engine.EngineModule;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What starting the engine costs: compiling engine.wasm, loading it from the on-disk cache of
 * compiled modules (goal: under 50 ms), and starting one instance (goal: under 1 ms).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class StartUp {

  private byte[] wasm;
  private EngineModule module;

  @Setup(Level.Trial)
  public void load() {
    try (InputStream in = EngineModule.class.getResourceAsStream("engine.wasm")) {
      wasm = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    module = EngineModule.bundled();
  }

  @TearDown(Level.Trial)
  public void close() {
    module.close();
  }

  /** Cranelift compiles the module: what the first start on a machine pays. */
  @Benchmark
  public void compileModule() {
    EngineModule.fromBytes(wasm).close();
  }

  /** The bundled module from the cache the first start wrote. */
  @Benchmark
  public void bundledFromCache() {
    EngineModule.bundled().close();
  }

  /** A new instance of a loaded module: instantiate, run its start function, check its ABI. */
  @Benchmark
  public void createEngine() {
    Engine.create(module).close();
  }
}
