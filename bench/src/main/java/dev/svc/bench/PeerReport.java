package dev.svc.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.util.Statistics;

/**
 * Runs {@link PeerDecision} and prints, from that one run, each peer's p50 and p99 per caller and
 * its p50 as a multiple of plain Java's and of svc's: {@code scripts/bench --peers [JMH options]}.
 */
public final class PeerReport {

  private PeerReport() {}

  /**
   * Runs the peer benchmark.
   *
   * @param args JMH's command line options (e.g. {@code -wi 3 -i 5}), which override the defaults
   * @throws RunnerException when JMH fails
   * @throws CommandLineOptionException when an option is malformed
   */
  public static void main(String[] args) throws RunnerException, CommandLineOptionException {
    Options options =
        new OptionsBuilder()
            .parent(new CommandLineOptions(args))
            .include(PeerDecision.class.getName() + ".decide")
            .build();
    Collection<RunResult> results = new Runner(options).run();
    System.out.flush();
    System.out.print(table(results));
  }

  /** The rows, in the order of the peers and callers, with the ratios of each p50. */
  static String table(Collection<RunResult> results) {
    Map<String, Statistics> byRow = new HashMap<>();
    for (RunResult result : results) {
      String peer = result.getParams().getParam("peer");
      String caller = result.getParams().getParam("caller");
      byRow.put(peer + "/" + caller, result.getPrimaryResult().getStatistics());
    }
    List<String> lines = new ArrayList<>();
    lines.add(String.format(
        "%-13s %-9s %9s %9s %14s %9s", "peer", "caller", "p50 µs", "p99 µs", "p50/plainJava", "p50/svc"));
    for (PeerDecision.Peer peer : PeerDecision.Peer.values()) {
      for (AccessRequest.Caller caller : AccessRequest.Caller.values()) {
        Statistics row = byRow.get(peer + "/" + caller);
        if (row == null) {
          continue;
        }
        double p50 = row.getPercentile(50);
        lines.add(String.format(
            "%-13s %-9s %9.3f %9.3f %14s %9s",
            peer, caller, p50, row.getPercentile(99),
            ratio(p50, byRow.get(PeerDecision.Peer.PLAIN_JAVA + "/" + caller)),
            ratio(p50, byRow.get(PeerDecision.Peer.SVC + "/" + caller))));
      }
    }
    return "\nPeer benchmark: access.main, one JMH run (SampleTime)\n" + String.join("\n", lines) + "\n";
  }

  /** {@code p50} over the other row's p50, or a dash when that row didn't run. */
  private static String ratio(double p50, Statistics other) {
    return other == null ? "-" : String.format("%.3g×", p50 / other.getPercentile(50));
  }
}
