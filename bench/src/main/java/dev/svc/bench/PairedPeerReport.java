package dev.svc.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.util.ListStatistics;
import org.openjdk.jmh.util.Statistics;

/**
 * The peer benchmark paired: {@code scripts/bench --peers --paired [--blocks N] [--block-size N]}.
 *
 * <p>{@link PeerReport} times each peer in a JMH fork of its own, a few seconds each; on machines
 * whose CPUs change between a fast and a slow mode every second or so (see {@link IsolationReport})
 * one fork can land mostly in one mode and the next mostly in the other. Here one JVM holds every
 * peer of {@link PeerDecision} with every caller's request prepared, and the fifteen rows take turns
 * in short blocks of calls, the order rotating each turn, every call timed with {@link
 * System#nanoTime}: over many turns every row sees the same mixture of modes, so their medians
 * compare. The timer adds the same few tens of nanoseconds to every row (plain Java's floor shows
 * it). The spread column is the p10-p90 of the rows' per-block medians.
 */
public final class PairedPeerReport {

  private static final int DEFAULT_BLOCKS = 1500;
  private static final int DEFAULT_BLOCK_SIZE = 200;
  // Turns before timing: enough for the JIT to compile every peer's path.
  private static final int WARMUP_TURNS = 100;

  private static volatile Object sink;

  /** One row: a peer deciding for one caller, and its timings. */
  private record Row(String name, PeerDecision.Bound<?> bound, long[] nanos, long[] blockMedians) {}

  private PairedPeerReport() {}

  /**
   * Measures and prints the table.
   *
   * @param args {@code --blocks N} (default {@value #DEFAULT_BLOCKS}), {@code --block-size N}
   *     (default {@value #DEFAULT_BLOCK_SIZE})
   */
  public static void main(String[] args) {
    int blocks = DEFAULT_BLOCKS;
    int blockSize = DEFAULT_BLOCK_SIZE;
    try {
      for (int i = 0; i < args.length; i += 2) {
        String value = i + 1 < args.length ? args[i + 1] : "";
        switch (args[i]) {
          case "--blocks" -> blocks = IsolationReport.positive("--blocks", value);
          case "--block-size" -> blockSize = IsolationReport.positive("--block-size", value);
          default -> throw new IllegalArgumentException(
              "unknown option `" + args[i] + "`; the options are --blocks N, --block-size N");
        }
      }
    } catch (IllegalArgumentException e) {
      System.err.println("scripts/bench --peers --paired: " + e.getMessage());
      System.exit(2);
      return;
    }
    List<AccessPeer<?>> started = new ArrayList<>();
    try {
      List<Row> rows = rows(started, blocks, blockSize);
      for (int turn = 0; turn < WARMUP_TURNS; turn++) {
        for (Row row : rows) {
          time(row.bound(), new long[blockSize], 0, blockSize);
        }
      }
      for (int turn = 0; turn < blocks; turn++) {
        for (int i = 0; i < rows.size(); i++) {
          block(rows.get((i + turn) % rows.size()), turn, blockSize);
        }
      }
      System.out.print(report(rows, blocks, blockSize));
    } finally {
      started.forEach(AccessPeer::close);
    }
  }

  // Every peer started and checked once (added to `started` for closing), bound to every caller.
  private static List<Row> rows(List<AccessPeer<?>> started, int blocks, int blockSize) {
    List<Row> rows = new ArrayList<>();
    for (PeerDecision.Peer peer : PeerDecision.Peer.values()) {
      AccessPeer<?> decider = PeerDecision.checked(peer);
      started.add(decider);
      for (AccessRequest.Caller caller : AccessRequest.Caller.values()) {
        rows.add(new Row(peer + "/" + caller, PeerDecision.Bound.of(decider, caller.request),
            new long[blocks * blockSize], new long[blocks]));
      }
    }
    return rows;
  }

  private static void block(Row row, int turn, int blockSize) {
    int from = turn * blockSize;
    time(row.bound(), row.nanos(), from, blockSize);
    long[] block = new long[blockSize];
    System.arraycopy(row.nanos(), from, block, 0, blockSize);
    row.blockMedians()[turn] = IsolationReport.percentile(block, 50);
  }

  private static void time(PeerDecision.Bound<?> bound, long[] nanos, int from, int calls) {
    for (int i = 0; i < calls; i++) {
      long start = System.nanoTime();
      Object answer = bound.decide();
      nanos[from + i] = System.nanoTime() - start;
      sink = answer;
    }
  }

  private static String report(List<Row> rows, int blocks, int blockSize) {
    Map<String, Statistics> byRow = new LinkedHashMap<>();
    Map<String, String> spreads = new LinkedHashMap<>();
    for (Row row : rows) {
      ListStatistics stats = new ListStatistics();
      for (long nanos : row.nanos()) {
        stats.addValue(nanos / 1000.0);
      }
      byRow.put(row.name(), stats);
      spreads.put(row.name(), String.format(Locale.ROOT, "%.3f-%.3f",
          IsolationReport.percentile(row.blockMedians(), 10) / 1000.0,
          IsolationReport.percentile(row.blockMedians(), 90) / 1000.0));
    }
    return PeerReport.table("Peer benchmark, paired: access.main, " + blocks + " turns of " + blockSize
        + " calls per row in one JVM, the rows' order rotating", byRow, "block p50 p10-90", spreads::get);
  }
}
