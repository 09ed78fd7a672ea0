package dev.svc.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.engine.CompileOptions;
import dev.svc.engine.Engine;
import dev.svc.engine.EngineModule;
import dev.svc.engine.EvalResult;
import dev.svc.engine.Isolation;
import dev.svc.engine.Limits;
import dev.svc.engine.Policy;
import dev.svc.engine.SourceFile;
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
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A benchmark of {@code policy.eval} from Java through JNI on one compiled policy: each subclass
 * compiles its policy in its own {@code @Setup} with {@link #start} and checks that it evaluates as
 * the benchmark means, so a broken policy fails the run instead of timing an error. The evaluation
 * is sampled: JMH reports its p0.50 and p0.99. Each runs with the instance in the JVM and in an
 * engine host process ({@link Isolation}), so the price of isolation is measured beside it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public abstract class OnePolicy {

  /** Where the instance runs. */
  @Param({"IN_PROCESS", "PROCESS"})
  public Isolation isolation;

  /** The module of the engine. */
  protected EngineModule module;
  /** The one instance. */
  protected Engine engine;
  /** The compiled policy. */
  protected Policy policy;
  /** The files the policy was compiled from. */
  protected List<SourceFile> files;
  /** The input every evaluation reads. */
  protected JsonNode input;

  /**
   * Starts an instance, compiles {@code files} and reads {@code inputJson}.
   *
   * @return the first evaluation, for the subclass to check
   */
  protected EvalResult start(List<SourceFile> files, CompileOptions options, String inputJson)
      throws Exception {
    module = EngineModule.bundled();
    engine = Engine.create(module, Limits.defaults(), isolation);
    this.files = files;
    policy = engine.compile(files, options);
    input = new ObjectMapper().readTree(inputJson);
    return policy.eval(input);
  }

  @TearDown(Level.Trial)
  public void stop() {
    policy.close();
    engine.close();
    module.close();
  }

  /** Sampled, so the report has the median and p99 the goals are about besides the mean. */
  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  public EvalResult eval() {
    return policy.eval(input);
  }
}
