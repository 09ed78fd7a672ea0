package dev.svc.bench;

import dev.svc.engine.CompileOptions;
import dev.svc.engine.EvalOptions;
import dev.svc.engine.EvalResult;
import dev.svc.engine.Policy;
import dev.svc.engine.SourceFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * {@code policy.eval} and {@code engine.compile} from Java through JNI: a ranked decision where one
 * rule fires ({@code rules=1}) and where 64 rules fire and fold into one. Goals: one ranked
 * decision under 5 µs median end to end; compile of a 1-rule policy under 100 µs.
 */
public class EvalRoundTrip extends OnePolicy {

  /**
   * The Refund kind every ranked-decision benchmark compiles against; engine-ts's
   * {@code scripts/bench.mjs} reads the same file, so both hosts time the same request.
   */
  static final String KIND = resource("refund-kind.sigil");

  private static final EvalOptions WITHOUT_TRACE = EvalOptions.defaults().withoutTrace();

  @Param({"1", "64"})
  public int rules;

  @Setup(Level.Trial)
  public void start() throws Exception {
    List<SourceFile> sources =
        List.of(SourceFile.of("kind.sigil", KIND), SourceFile.of("refund/desk.sigil", policy(rules)));
    EvalResult result = start(sources, CompileOptions.defaults(), "{\"amount\": 40, \"channel\": \"web\"}");
    if (!result.decision().orElse("").equals("approve")) {
      throw new IllegalStateException("the benchmark policy doesn't approve: " + result);
    }
  }

  /** The record without its trace ({@link EvalOptions#withoutTrace()}), sampled as {@link #eval()} is. */
  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  public EvalResult evalWithoutTrace() {
    return policy.evalWith(input, WITHOUT_TRACE);
  }

  @Benchmark
  public long compileAndRelease() {
    try (Policy compiled = engine.compile(files, CompileOptions.defaults())) {
      return compiled.handle();
    }
  }

  /** {@code rules} rules that all approve a small web refund, ranked under a deny. */
  static String policy(int rules) {
    StringBuilder s = new StringBuilder("policy refund.desk: Refund@1\n\n");
    s.append("when amount > 10000 {\n  deny(reason: fraud)\n}\n\n");
    for (int i = 0; i < rules; i++) {
      s.append("when amount < 100 + ").append(i).append(" and channel == \"web\" {\n")
          .append("  approve(reason: small, limit: 100)\n}\n\n");
    }
    return s.toString();
  }

  private static String resource(String name) {
    try (InputStream in = EvalRoundTrip.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("no " + name + " beside EvalRoundTrip on the class path; build the bench module");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
