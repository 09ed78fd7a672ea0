package dev.svc.bench;

import dev.svc.engine.CompileOptions;
import dev.svc.engine.EvalResult;
import dev.svc.engine.Policy;
import dev.svc.engine.SourceFile;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * {@code policy.eval} and {@code engine.compile} from Java through JNI: a ranked decision where one
 * rule fires ({@code rules=1}) and where 64 rules fire and fold into one. Goals: one ranked
 * decision under 5 µs median end to end; compile of a 1-rule policy under 100 µs.
 */
public class EvalRoundTrip extends OnePolicy {

  static final String KIND =
      """
      kind Refund version 1

      input amount: int
      input channel: string

      decision deny {
        reason: fraud | no_rule
      }

      decision approve {
        reason: goodwill | small
        limit: int = 100
      }

      collect one
      precedence deny > approve
      precedence approve: goodwill > small

      default deny(reason: no_rule)
      """;

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
}
