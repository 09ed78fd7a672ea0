package dev.svc.server.operator;

import io.prometheus.metrics.model.registry.MetricType;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.Exemplars;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot.SummaryDataPointSnapshot;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code svc_reconciler_duration_seconds{reconciler,name,namespace}} (access-server spec §9): one
 * Prometheus collector holding a few numbers per sign-in name, instead of a Micrometer timer per name.
 * A Micrometer timer costs about 1.3 KiB of heap (its id, tags, adders, ring of maxima, exemplar
 * sampler and the registry's maps), which is more than half of what the operator spends per live sign-in;
 * the series here costs about a tenth of that.
 *
 * <p>The exposition is the one a Micrometer {@code Timer} registered in a {@code PrometheusMeterRegistry}
 * gives, byte for byte: a summary {@code svc_reconciler_duration_seconds} with {@code _count} and
 * {@code _sum}, and a gauge {@code svc_reconciler_duration_seconds_max}, with the same help text,
 * labels and values. Like Micrometer's, the maximum is the longest reconcile of the last two to three
 * windows of a minute (a Prometheus registry's step, with Micrometer's three buckets); the windows here
 * start together for every name rather than at each meter's creation.
 *
 * <p><b>Thread safety:</b> thread-safe; a name's series is updated under its own lock, and a scrape
 * reads each series under that lock.
 */
final class ReconcileTimer implements MultiCollector {

  /** The summary's name. */
  static final String NAME = "svc_reconciler_duration_seconds";
  /** The maximum's name. */
  static final String MAX_NAME = NAME + "_max";
  /** The {@code reconciler} label's value. */
  static final String RECONCILER = "user";
  private static final String HELP = "Time of one reconcile";
  // Sorted, as Labels wants them.
  private static final String[] LABEL_NAMES = {"name", "namespace", "reconciler"};
  private static final MetricMetadata SUMMARY = new MetricMetadata(NAME, HELP, null);
  private static final MetricMetadata MAX = new MetricMetadata(MAX_NAME, HELP, null);
  private static final List<MetricFamilyDescriptor> FAMILIES = List.of(
      MetricFamilyDescriptor.of(MetricType.SUMMARY, SUMMARY, List.of(LABEL_NAMES)),
      MetricFamilyDescriptor.of(MetricType.GAUGE, MAX, List.of(LABEL_NAMES)));
  private static final long WINDOW_MILLIS = Duration.ofMinutes(1).toMillis();
  private static final double NANOS_PER_SECOND = 1e9;

  private final String namespace;
  private final Clock clock;
  private final Map<String, Series> series = new ConcurrentHashMap<>();

  /**
   * No series yet.
   *
   * @param namespace the {@code namespace} label
   * @param clock the wall clock: when a series starts, and which window a reconcile falls in
   */
  ReconcileTimer(String namespace, Clock clock) {
    this.namespace = namespace;
    this.clock = clock;
  }

  /** Records one reconcile of {@code name} that took {@code took} (not negative). */
  void record(String name, Duration took) {
    long nanos = took.toNanos();
    long now = clock.millis();
    long window = now / WINDOW_MILLIS;
    series.computeIfAbsent(name, absent -> new Series(now, window)).record(nanos, window);
  }

  /** Drops the series of {@code name}. */
  void forget(String name) {
    series.remove(name);
  }

  @Override
  public List<MetricFamilyDescriptor> getMetricFamilyDescriptors() {
    return FAMILIES;
  }

  @Override
  public MetricSnapshots collect() {
    long window = clock.millis() / WINDOW_MILLIS;
    List<SummaryDataPointSnapshot> sums = new ArrayList<>(series.size());
    List<GaugeDataPointSnapshot> maxima = new ArrayList<>(series.size());
    series.forEach((name, one) -> {
      Labels labels = Labels.of(LABEL_NAMES, new String[] {name, namespace, RECONCILER});
      synchronized (one) {
        sums.add(new SummaryDataPointSnapshot(one.count, one.sumNanos / NANOS_PER_SECOND, Quantiles.EMPTY, labels,
            Exemplars.EMPTY, one.created));
        maxima.add(new GaugeDataPointSnapshot(one.max(window) / NANOS_PER_SECOND, labels, null));
      }
    });
    return MetricSnapshots.of(new SummarySnapshot(SUMMARY, sums), new GaugeSnapshot(MAX, maxima));
  }

  /**
   * One name's numbers: count, total, and the longest reconcile of each of the last three windows (fields,
   * not an array: 16 bytes fewer per name). Guarded by its own monitor.
   */
  private static final class Series {

    final long created;
    long count;
    long sumNanos;
    long lastWindow;
    // The longest reconcile of the windows lastWindow, lastWindow - 1 and lastWindow - 2.
    long maxLast;
    long maxOneBefore;
    long maxTwoBefore;

    Series(long createdMillis, long window) {
      this.created = createdMillis;
      this.lastWindow = window;
    }

    synchronized void record(long nanos, long window) {
      // A clock set back counts the reconcile in the latest window seen.
      long passed = window - lastWindow;
      if (passed > 0) {
        maxTwoBefore = passed == 1 ? maxOneBefore : passed == 2 ? maxLast : 0;
        maxOneBefore = passed == 1 ? maxLast : 0;
        maxLast = 0;
        lastWindow = window;
      }
      count++;
      sumNanos += nanos;
      maxLast = Math.max(maxLast, nanos);
    }

    /** The longest reconcile of the windows {@code window - 2 .. window}. */
    long max(long window) {
      long passed = Math.max(0, window - lastWindow);
      return passed == 0 ? Math.max(maxLast, Math.max(maxOneBefore, maxTwoBefore))
          : passed == 1 ? Math.max(maxLast, maxOneBefore)
          : passed == 2 ? maxLast
          : 0;
    }
  }
}
