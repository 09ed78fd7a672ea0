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
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The price of {@link Isolation#PROCESS} per evaluation, paired: {@code scripts/bench --isolation
 * [--decision ranked|access] [--blocks N] [--block-size N]}.
 *
 * <p>Why paired and long: each CPU of the machines this runs on switches between a fast mode and
 * one about 1.8 times slower every second or so, independently of the other CPU (native code too: the
 * engine's Rust timing loop, pinned to one CPU, shows it), so two JMH runs (one per isolation) can't
 * be compared at the microsecond level. Here one JVM holds an engine of each isolation with the same
 * policy and input and alternates them in short blocks (the first of each pair of blocks alternates
 * too), timing every call. Over a long run (by default {@value #DEFAULT_BLOCKS} blocks, a minute or
 * two) both kinds see each CPU's modes in the same proportions, so the gap between their medians is
 * the price of the process on such a machine. (An out-of-process call is fast only while both its
 * CPUs are, the JVM's and the host's, so that price is larger in the fast mode, as JMH runs that
 * land there show.) The per-block gaps are printed too, but their median is not that price: in a pair of
 * blocks the in-process calls run on the JVM thread's CPU and the out-of-process ones on the host's,
 * which may be in the other mode at that moment, and in blocks where the two threads share one CPU
 * every call hands it over; their spread shows how often that happened.
 *
 * <p>The decisions are those of the JMH benchmarks {@link EvalRoundTrip} ({@code rules=1}, the whole
 * record) and {@link AccessEval} ({@code access.main} for a member). Run from the repository root,
 * as scripts/bench does ({@code access.main} is read from conf/policies).
 */
public final class IsolationReport {

  private static final int DEFAULT_BLOCKS = 8000;
  private static final int DEFAULT_BLOCK_SIZE = 200;
  // Calls per kind before timing: enough for the JIT to compile both paths.
  private static final int WARMUP_CALLS = 40_000;

  /** A decision both isolations take. */
  enum Decision {
    /** EvalRoundTrip's ranked decision with one rule that fires. */
    RANKED("approve") {
      @Override
      List<SourceFile> files() {
        return List.of(SourceFile.of("kind.sigil", EvalRoundTrip.KIND),
            SourceFile.of("refund/desk.sigil", EvalRoundTrip.policy(1)));
      }

      @Override
      CompileOptions options() {
        return CompileOptions.defaults();
      }

      @Override
      String inputJson() {
        return "{\"amount\": 40, \"channel\": \"web\"}";
      }
    },
    /** AccessEval's {@code access.main} for a member of the resource's team. */
    ACCESS("allow") {
      @Override
      List<SourceFile> files() {
        return SvcPeer.files();
      }

      @Override
      CompileOptions options() {
        return CompileOptions.defaults().withPolicy("access.main");
      }

      @Override
      String inputJson() {
        return AccessRequest.Caller.MEMBER.request.inputJson();
      }
    };

    /** The decision the policy must take, checked before timing. */
    final String expected;

    Decision(String expected) {
      this.expected = expected;
    }

    abstract List<SourceFile> files();

    abstract CompileOptions options();

    abstract String inputJson();
  }

  /** What a run measures: which decisions, how many blocks of how many calls per kind. */
  record Plan(List<Decision> decisions, int blocks, int blockSize) {}

  /**
   * One kind's timings and, per block, the median of that block.
   *
   * @param nanos every call's latency, block after block
   * @param blockMedians each block's median latency
   */
  record Timings(long[] nanos, long[] blockMedians) {

    double percentileMicros(double p) {
      return percentile(nanos, p) / 1000.0;
    }
  }

  private static volatile Object sink;

  private IsolationReport() {}

  /**
   * Measures and prints the table.
   *
   * @param args {@code --decision ranked|access} (default: both), {@code --blocks N} (default
   *     {@value #DEFAULT_BLOCKS}), {@code --block-size N} (default {@value #DEFAULT_BLOCK_SIZE})
   */
  public static void main(String[] args) throws IOException {
    Plan plan;
    try {
      plan = parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("scripts/bench --isolation: " + e.getMessage());
      System.exit(2);
      return;
    }
    List<String> rows = new ArrayList<>();
    for (Decision decision : plan.decisions()) {
      rows.add(measure(decision, plan));
    }
    System.out.printf(Locale.ROOT, "%nIsolation, paired: %d blocks of %d calls per kind, alternated in one JVM%n",
        plan.blocks(), plan.blockSize());
    System.out.printf(Locale.ROOT, "%-8s %8s %8s %8s %8s %9s %16s %17s%n", "decision", "in p50", "in p99",
        "out p50", "out p99", "p50 gap", "block gap p50", "block gap p10-90");
    rows.forEach(System.out::println);
    System.out.println("(µs; gap = out - in)");
  }

  static Plan parse(String[] args) {
    List<Decision> decisions = List.of(Decision.values());
    int blocks = DEFAULT_BLOCKS;
    int blockSize = DEFAULT_BLOCK_SIZE;
    for (int i = 0; i < args.length; i += 2) {
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("`" + args[i] + "` needs a value; e.g. --blocks 1000");
      }
      String value = args[i + 1];
      switch (args[i]) {
        case "--decision" -> decisions = List.of(decision(value));
        case "--blocks" -> blocks = positive("--blocks", value);
        case "--block-size" -> blockSize = positive("--block-size", value);
        default -> throw new IllegalArgumentException("unknown option `" + args[i]
            + "`; the options are --decision ranked|access, --blocks N, --block-size N");
      }
    }
    return new Plan(decisions, blocks, blockSize);
  }

  private static Decision decision(String name) {
    for (Decision d : Decision.values()) {
      if (d.name().equalsIgnoreCase(name)) {
        return d;
      }
    }
    throw new IllegalArgumentException("--decision must be ranked or access, not `" + name + "`");
  }

  /** {@code text} as a whole number of at least 1, or an error naming {@code option}. */
  static int positive(String option, String text) {
    try {
      int n = Integer.parseInt(text);
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // answered below, as for a number out of range
    }
    throw new IllegalArgumentException(option + " must be a whole number of at least 1, not `" + text + "`");
  }

  // One row of the table: both kinds' percentiles, the gap of the medians and of the blocks.
  private static String measure(Decision decision, Plan plan) throws IOException {
    JsonNode input = new ObjectMapper().readTree(decision.inputJson());
    try (EngineModule module = EngineModule.bundled();
        Engine inEngine = Engine.create(module, Limits.defaults(), Isolation.IN_PROCESS);
        Engine outEngine = Engine.create(module, Limits.defaults(), Isolation.PROCESS);
        Policy in = compile(inEngine, decision);
        Policy out = compile(outEngine, decision)) {
      check(in, input, decision);
      check(out, input, decision);
      for (int i = 0; i < WARMUP_CALLS; i += plan.blockSize()) {
        time(in, input, plan.blockSize(), new long[plan.blockSize()], 0);
        time(out, input, plan.blockSize(), new long[plan.blockSize()], 0);
      }
      Timings inTimes = new Timings(new long[plan.blocks() * plan.blockSize()], new long[plan.blocks()]);
      Timings outTimes = new Timings(new long[plan.blocks() * plan.blockSize()], new long[plan.blocks()]);
      for (int b = 0; b < plan.blocks(); b++) {
        if (b % 2 == 0) {
          block(in, input, plan, b, inTimes);
          block(out, input, plan, b, outTimes);
        } else {
          block(out, input, plan, b, outTimes);
          block(in, input, plan, b, inTimes);
        }
      }
      return row(decision, inTimes, outTimes);
    }
  }

  private static Policy compile(Engine engine, Decision decision) {
    return engine.compile(decision.files(), decision.options());
  }

  private static void check(Policy policy, JsonNode input, Decision decision) {
    EvalResult result = policy.eval(input);
    if (!result.decision().orElse("").equals(decision.expected)) {
      throw new IllegalStateException("the " + decision + " policy doesn't " + decision.expected + ": " + result);
    }
  }

  private static void block(Policy policy, JsonNode input, Plan plan, int b, Timings timings) {
    int from = b * plan.blockSize();
    time(policy, input, plan.blockSize(), timings.nanos(), from);
    timings.blockMedians()[b] = percentile(Arrays.copyOfRange(timings.nanos(), from, from + plan.blockSize()), 50);
  }

  private static void time(Policy policy, JsonNode input, int calls, long[] nanos, int from) {
    for (int i = 0; i < calls; i++) {
      long start = System.nanoTime();
      EvalResult result = policy.eval(input);
      nanos[from + i] = System.nanoTime() - start;
      sink = result;
    }
  }

  private static String row(Decision decision, Timings in, Timings out) {
    long[] gaps = new long[in.blockMedians().length];
    for (int b = 0; b < gaps.length; b++) {
      gaps[b] = out.blockMedians()[b] - in.blockMedians()[b];
    }
    return String.format(Locale.ROOT, "%-8s %8.3f %8.3f %8.3f %8.3f %9.3f %16.3f %17s",
        decision.name().toLowerCase(Locale.ROOT), in.percentileMicros(50), in.percentileMicros(99),
        out.percentileMicros(50), out.percentileMicros(99), out.percentileMicros(50) - in.percentileMicros(50),
        percentile(gaps, 50) / 1000.0,
        String.format(Locale.ROOT, "%.3f-%.3f", percentile(gaps, 10) / 1000.0, percentile(gaps, 90) / 1000.0));
  }

  /** The {@code p}-th percentile of {@code values} (nearest rank); sorts a copy. */
  static long percentile(long[] values, double p) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }
}
