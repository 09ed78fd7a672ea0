package dev.svc.bench;

import dev.svc.engine.Engine;
import dev.svc.engine.EngineModule;
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
 * Lexing, parsing and formatting a policy inside the engine module (the {@code format} op, which
 * also re-parses its output to prove it), from Java. Goal: a 64-rule policy under 1 ms.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class FormatRoundTrip {

  @Param({"1", "64"})
  public int rules;

  private EngineModule module;
  private Engine engine;
  private String source;

  @Setup(Level.Trial)
  public void start() {
    module = EngineModule.bundled();
    engine = Engine.create(module);
    source = policy(rules);
  }

  @TearDown(Level.Trial)
  public void stop() {
    engine.close();
    module.close();
  }

  @Benchmark
  public String format() {
    return engine.format(source);
  }

  /** A policy of {@code rules} rules in the style of the spec's examples, not yet canonical. */
  static String policy(int rules) {
    StringBuilder s =
        new StringBuilder(
            "// The deploy gate of the payments team.\n"
                + "policy payments.deploy: DeployGate@1\n\nuse platform.common\n\n"
                + "param min_soak: duration = 4h, max: 72h, min: 1h\n"
                + "let owners = [\"alice\", \"bob\",\n  \"carol\"] // on call\n\n");
    for (int i = 0; i < rules; i++) {
      s.append("// rule ").append(i).append(": hotfixes by owners skip the soak\n")
          .append("when release.soak >= 1h30m and service.tier == Tier.critical\n")
          .append("    and actor in owners and not (region in [\"eu-").append(i)
          .append("\", \"us-").append(i).append("\"]) and any r in actor.roles: r like \"sre-*\"")
          .append(" and release.hotfix {\n  approve(reason: owner_hotfix, approvers: [\"sre\"], limit: ")
          .append(i).append(", ratio: 0.").append(i).append("5) // why\n}\n\n");
    }
    return s.toString();
  }
}
