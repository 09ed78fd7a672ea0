package dev.svc.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.util.Statistics;

/**
 * Runs {@link PeerDecision} in rounds and prints each peer's p50 and p99 per caller and its p50 as
 * a multiple of plain Java's and of svc's: {@code scripts/bench --peers [--rounds N] [JMH options]}.
 *
 * <p>Why rounds: each CPU of the machines this runs on switches between a fast and a slow mode
 * every second or so (see {@link IsolationReport}), so one pass over fifteen benchmarks can time one
 * peer mostly fast and the next mostly slow. Each round
 * runs every peer, starting with a different one; a row reports the round where its p50 was lowest
 * (every row gets the same treatment) and the range of its p50 over all rounds, so a reader sees
 * how much the machine moved.
 */
public final class PeerReport {

  private static final int DEFAULT_ROUNDS = 3;

  private PeerReport() {}

  /**
   * Runs the peer benchmark.
   *
   * @param args {@code --rounds N} first if given, then JMH's command line options (e.g. {@code -wi
   *     3 -i 5}), which override the defaults
   * @throws RunnerException when JMH fails
   * @throws CommandLineOptionException when an option is malformed
   */
  public static void main(String[] args) throws RunnerException, CommandLineOptionException {
    int rounds = DEFAULT_ROUNDS;
    String[] jmhArgs = args;
    if (args.length >= 2 && args[0].equals("--rounds")) {
      try {
        rounds = IsolationReport.positive("--rounds", args[1]);
      } catch (IllegalArgumentException e) {
        System.err.println("scripts/bench --peers: " + e.getMessage() + "; e.g. --rounds 3");
        System.exit(2);
        return;
      }
      jmhArgs = Arrays.copyOfRange(args, 2, args.length);
    }
    CommandLineOptions jmh = new CommandLineOptions(jmhArgs);
    Map<String, List<Statistics>> byRow = new LinkedHashMap<>();
    for (int round = 0; round < rounds; round++) {
      Options options =
          new OptionsBuilder()
              .parent(jmh)
              .include(PeerDecision.class.getName() + ".decide")
              .param("peer", peerOrder(round))
              .build();
      for (RunResult result : new Runner(options).run()) {
        String row = result.getParams().getParam("peer") + "/" + result.getParams().getParam("caller");
        byRow.computeIfAbsent(row, r -> new ArrayList<>()).add(result.getPrimaryResult().getStatistics());
      }
    }
    System.out.flush();
    System.out.print(table("Peer benchmark: access.main, " + rounds + " round(s) of JMH SampleTime; each row's best"
        + " round, and its p50 over all rounds", best(byRow), "p50 range µs", row -> range(byRow.get(row))));
  }

  /** The peers rotated by the round number, so no peer always runs first or last. */
  private static String[] peerOrder(int round) {
    PeerDecision.Peer[] peers = PeerDecision.Peer.values();
    String[] order = new String[peers.length];
    for (int i = 0; i < peers.length; i++) {
      order[i] = peers[(i + round) % peers.length].name();
    }
    return order;
  }

  /** Each row's round with the lowest p50. */
  private static Map<String, Statistics> best(Map<String, List<Statistics>> byRow) {
    Map<String, Statistics> best = new LinkedHashMap<>();
    byRow.forEach((row, runs) ->
        best.put(row, runs.stream().min(Comparator.comparingDouble(s -> s.getPercentile(50))).orElseThrow()));
    return best;
  }

  /**
   * The rows, in the order of the peers and callers, with the ratios of each p50 to plain Java's and
   * svc's for the same caller.
   *
   * @param title the line above the table
   * @param rows each row's statistics, by {@code PEER/CALLER}
   * @param spreadHeader the header of the column that says how much a row's p50 moved
   * @param spread that column's text for a row
   */
  static String table(String title, Map<String, Statistics> rows, String spreadHeader,
      Function<String, String> spread) {
    List<String> lines = new ArrayList<>();
    lines.add(String.format("%-13s %-9s %9s %9s %17s %14s %9s",
        "peer", "caller", "p50 µs", "p99 µs", spreadHeader, "p50/plainJava", "p50/svc"));
    for (PeerDecision.Peer peer : PeerDecision.Peer.values()) {
      for (AccessRequest.Caller caller : AccessRequest.Caller.values()) {
        String row = peer + "/" + caller;
        Statistics stats = rows.get(row);
        if (stats == null) {
          continue;
        }
        double p50 = stats.getPercentile(50);
        lines.add(String.format("%-13s %-9s %9.3f %9.3f %17s %14s %9s",
            peer, caller, p50, stats.getPercentile(99), spread.apply(row),
            ratio(p50, rows.get(PeerDecision.Peer.PLAIN_JAVA + "/" + caller)),
            ratio(p50, rows.get(PeerDecision.Peer.SVC + "/" + caller))));
      }
    }
    return "\n" + title + "\n" + String.join("\n", lines) + "\n";
  }

  private static String range(Collection<Statistics> runs) {
    double low = runs.stream().mapToDouble(s -> s.getPercentile(50)).min().orElseThrow();
    double high = runs.stream().mapToDouble(s -> s.getPercentile(50)).max().orElseThrow();
    return String.format("%.3f-%.3f", low, high);
  }

  /** {@code p50} over the other row's p50, or a dash when that row didn't run. */
  private static String ratio(double p50, Statistics other) {
    return other == null ? "-" : String.format("%.3g×", p50 / other.getPercentile(50));
  }
}
