package dev.svc.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.engine.CompileOptions;
import dev.svc.engine.EngineModule;
import dev.svc.engine.EvalOptions;
import dev.svc.engine.EvalResult;
import dev.svc.engine.Isolation;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Evaluations per millisecond through a {@link Pool} of two instances, from one and from two calling
 * threads, with {@link EvalRoundTrip}'s ranked decision ({@code rules=1}). Goal: two threads reach at
 * least 1.6 times one thread's throughput on a two-core machine.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PoolThroughput {

  private static final String NAME = "refund.desk";

  /** Where the instances run. */
  @Param({"IN_PROCESS", "PROCESS"})
  public Isolation isolation;

  private EngineModule module;
  private Pool pool;
  private JsonNode input;

  @Setup(Level.Trial)
  public void start() throws Exception {
    module = EngineModule.bundled();
    pool = Pool.create(module, PoolOptions.builder().size(2).isolation(isolation).build());
    List<SourceFile> files =
        List.of(
            SourceFile.of("kind.sigil", EvalRoundTrip.KIND),
            SourceFile.of("refund/desk.sigil", EvalRoundTrip.policy(1)));
    pool.compile(NAME, files, CompileOptions.defaults());
    input = new ObjectMapper().readTree("{\"amount\": 40, \"channel\": \"web\"}");
    EvalResult result = pool.evaluate(NAME, input);
    if (!result.decision().orElse("").equals("approve")) {
      throw new IllegalStateException("the benchmark policy doesn't approve: " + result);
    }
  }

  @TearDown(Level.Trial)
  public void stop() {
    pool.close();
    module.close();
  }

  @Benchmark
  @Threads(1)
  public EvalResult oneThread() {
    return pool.evaluate(NAME, input, EvalOptions.defaults());
  }

  @Benchmark
  @Threads(2)
  public EvalResult twoThreads() {
    return pool.evaluate(NAME, input, EvalOptions.defaults());
  }
}
