package dev.svc.bench;

import dev.svc.engine.Diagnostic;
import dev.svc.engine.Engine;
import dev.svc.engine.EngineModule;
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
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The {@code check} op from Java: parse the kind and a policy, load the kind, type-check the policy
 * and lint it. Goal: a 64-rule policy under 1 ms inside the module.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CheckRoundTrip {

  static final String KIND =
      """
      kind Gate version 1

      enum Zone: lobby | lab | vault

      type Person {
        name: string
        clearance: int
      }

      type Badge {
        holder: string
        groups: list<string>
        limits: map<Zone, int>
        escort: ?Person
        people: list<Person>
        valid_for: duration
      }

      input badge: Badge
      input zone: Zone
      input attempts: int

      fn lower(string) -> string

      decision allow {
        reason: member
        hold_open: duration = 5s
      }

      decision review {
        reason: manual
        approvers: list<string>
      }

      collect all
      """;

  @Param({"1", "64"})
  public int rules;

  private EngineModule module;
  private Engine engine;
  private List<SourceFile> files;

  @Setup(Level.Trial)
  public void start() {
    module = EngineModule.bundled();
    engine = Engine.create(module);
    files = List.of(SourceFile.of("kind.sigil", KIND), SourceFile.of("gate/main.sigil", policy(rules)));
    List<Diagnostic> found = engine.check(files);
    if (!found.isEmpty()) {
      throw new IllegalStateException("the benchmark policy doesn't check: " + found);
    }
  }

  @TearDown(Level.Trial)
  public void stop() {
    engine.close();
    module.close();
  }

  @Benchmark
  public List<Diagnostic> check() {
    return engine.check(files);
  }

  /** A policy of {@code rules} rules over names, enums, optionals, quantifiers, maps and calls. */
  static String policy(int rules) {
    StringBuilder s =
        new StringBuilder(
            "policy gate.main: Gate@1\n\nparam floor: int = 2, min: 0, max: 9\n"
                + "let trusted = badge.groups any in [\"staff\", \"sre\"]\n\n");
    for (int i = 0; i < rules; i++) {
      s.append("when trusted and zone in [lab, Zone.vault] and attempts < floor + ").append(i)
          .append("\n    and (badge.escort?.name ?? \"\") != \"x").append(i)
          .append("\" and any p in badge.people: p.clearance > ").append(i)
          .append("\n    and badge.limits has lab and lower(badge.holder) like \"a*\"")
          .append(" and badge.valid_for > 1h").append(i).append("m {\n")
          .append("  review(reason: manual, approvers: [\"r").append(i).append("\"])\n")
          .append("  allow(reason: member, hold_open: ").append(i).append("s)\n}\n\n");
    }
    return s.toString();
  }
}
