package dev.svc.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.engine.CompileOptions;
import dev.svc.engine.Engine;
import dev.svc.engine.EvalResult;
import dev.svc.engine.HostFunction;
import dev.svc.engine.Module;
import dev.svc.engine.Policy;
import dev.svc.engine.SourceFile;
import java.util.List;
import java.util.Locale;
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
 * The cost of one host function call from inside {@code policy.eval}: the same one-rule evaluation
 * with {@code calls=0} (the rule compares the input itself) and {@code calls=1} (it asks a Java host
 * function first), raw and typed. The difference of the medians is the host call's round trip.
 * Goal: under 2 µs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HostCallRoundTrip {

  private static final String KIND =
      """
      kind Name version 1

      input name: string

      fn lower(string) -> string

      decision allow {
        reason: known
      }

      decision deny {
        reason: no_rule
      }

      collect one
      precedence deny > allow

      default deny(reason: no_rule)
      """;

  /** How the rule reads the name. */
  public enum Call {
    /** No host call: the rule compares the input. */
    NONE("name == \"ana\""),
    /** A raw {@link HostFunction} over JSON nodes. */
    RAW("lower(name) == \"ana\""),
    /** A typed {@link HostFunction#of(Class, HostFunction.Fn1)}. */
    TYPED("lower(name) == \"ana\"");

    final String condition;

    Call(String condition) {
      this.condition = condition;
    }
  }

  @Param
  public Call call;

  private Module module;
  private Engine engine;
  private Policy policy;
  private JsonNode input;

  @Setup(Level.Trial)
  public void start() throws Exception {
    module = Module.bundled();
    engine = Engine.create(module);
    String source = "policy names.check: Name@1\n\nwhen " + call.condition + " {\n  allow(reason: known)\n}\n";
    HostFunction lower =
        call == Call.TYPED
            ? HostFunction.of(String.class, s -> s.toLowerCase(Locale.ROOT))
            : args -> JsonNodeFactory.instance.textNode(args.get(0).asText().toLowerCase(Locale.ROOT));
    CompileOptions options = CompileOptions.defaults().withFunction("lower", lower);
    policy =
        engine.compile(
            List.of(SourceFile.of("kind.sigil", KIND), SourceFile.of("names.sigil", source)), options);
    input = new ObjectMapper().readTree(call == Call.NONE ? "{\"name\": \"ana\"}" : "{\"name\": \"ANA\"}");
    EvalResult result = policy.eval(input);
    if (!result.decision().orElse("").equals("allow")) {
      throw new IllegalStateException("the benchmark policy doesn't allow: " + result);
    }
  }

  @TearDown(Level.Trial)
  public void stop() {
    policy.close();
    engine.close();
    module.close();
  }

  @Benchmark
  public EvalResult eval() {
    return policy.eval(input);
  }
}
