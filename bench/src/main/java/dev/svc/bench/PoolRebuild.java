package dev.svc.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.engine.CompileOptions;
import dev.svc.engine.EngineModule;
import dev.svc.engine.EvalOptions;
import dev.svc.engine.EvalResult;
import dev.svc.engine.Isolation;
import dev.svc.engine.ModuleConfig;
import dev.svc.engine.OutOfFuelException;
import dev.svc.engine.SourceFile;
import dev.svc.supervisor.Pool;
import dev.svc.supervisor.PoolOptions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * From an instance stopping to its return to service, with 1 and 50 installed policies: a pool of
 * one instance (on a module with fuel metering) whose evaluation runs out of fuel, then the next
 * evaluation, which waits until the rebuilt instance, with every policy compiled again, takes it.
 * The op is that pair; the evaluations themselves take microseconds. Goal: under 200 ms with 50
 * policies.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PoolRebuild {

  @Param({"1", "50"})
  public int policies;

  /** Where the instances run; out of process, a rebuild starts a new host process too. */
  @Param({"IN_PROCESS", "PROCESS"})
  public Isolation isolation;

  private EngineModule module;
  private Pool pool;
  private JsonNode input;
  private EvalOptions poison;

  @Setup(Level.Trial)
  public void start() throws Exception {
    module = EngineModule.bundled(ModuleConfig.defaults().withFuel(true));
    pool = Pool.create(module, PoolOptions.builder().size(1).isolation(isolation).build());
    List<SourceFile> files =
        List.of(
            SourceFile.of("kind.sigil", EvalRoundTrip.KIND),
            SourceFile.of("refund/desk.sigil", EvalRoundTrip.policy(1)));
    for (int i = 0; i < policies; i++) {
      pool.compile(name(i), files, CompileOptions.defaults());
    }
    input = new ObjectMapper().readTree("{\"amount\": 40, \"channel\": \"web\"}");
    poison = EvalOptions.defaults().withFuel(100);
  }

  @TearDown(Level.Trial)
  public void stop() {
    if (pool.stats().replaced() == 0) {
      throw new IllegalStateException("no instance was replaced: " + pool.stats());
    }
    pool.close();
    module.close();
  }

  @Benchmark
  public EvalResult stopAndServeAgain() {
    try {
      pool.evaluate(name(0), input, poison);
      throw new IllegalStateException("the poisoned evaluation didn't stop its instance");
    } catch (OutOfFuelException expected) {
      return pool.evaluate(name(policies - 1), input);
    }
  }

  private static String name(int i) {
    return "refund.desk." + i;
  }
}
