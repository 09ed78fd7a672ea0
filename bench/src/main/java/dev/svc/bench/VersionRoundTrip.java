package dev.svc.bench;

import dev.svc.engine.Engine;
import dev.svc.engine.EngineModule;
import dev.svc.engine.VersionInfo;
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
 * The cost of the thinnest complete engine call: {@code version} from Java through JNI and wasmtime
 * into the module and back, decoded into a {@link VersionInfo}. Goal: under 2 µs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class VersionRoundTrip {

  private EngineModule module;
  private Engine engine;

  @Setup(Level.Trial)
  public void start() {
    module = EngineModule.bundled();
    engine = Engine.create(module);
  }

  @TearDown(Level.Trial)
  public void stop() {
    engine.close();
    module.close();
  }

  @Benchmark
  public VersionInfo version() {
    return engine.version();
  }
}
