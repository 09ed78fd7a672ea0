package dev.svc.server.operator;

import io.prometheus.metrics.model.registry.MetricType;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code svc_user_signins_total{cluster_role,username}} (access-server spec §9): one Prometheus collector
 * holding a count per role and username, instead of a Micrometer counter per user (about 450 bytes each,
 * a quarter of what the operator spent per live sign-in). The username is the cached sign-in's own string,
 * so a live sign-in's series costs a map entry and a count.
 *
 * <p>The exposition is the one a Micrometer {@code Counter} registered in a {@code PrometheusMeterRegistry}
 * gives, byte for byte. Like a counter, a series stays once made: it counts sign-ins ever provisioned.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
final class SigninCounter implements MultiCollector {

  /** The counter's family name, as the Prometheus registry knows it (without {@code _total}). */
  static final String NAME = "svc_user_signins";
  // Sorted, as Labels wants them.
  private static final String[] LABEL_NAMES = {"cluster_role", "username"};
  private static final MetricMetadata METADATA =
      new MetricMetadata(NAME, "Sign-ins provisioned, extensions included", null);
  private static final List<MetricFamilyDescriptor> FAMILIES =
      List.of(MetricFamilyDescriptor.of(MetricType.COUNTER, METADATA, List.of(LABEL_NAMES)));

  private record Key(String role, String username) {}

  /** One series' count and when it was made. Guarded by its own monitor. */
  private static final class Count {
    final long created;
    long value;

    Count(long created) {
      this.created = created;
    }

    synchronized void increment() {
      value++;
    }

    synchronized CounterDataPointSnapshot snapshot(Key key) {
      return new CounterDataPointSnapshot(value, Labels.of(LABEL_NAMES, new String[] {key.role(), key.username()}),
          null, created);
    }
  }

  private final Clock clock;
  private final Map<Key, Count> counts = new ConcurrentHashMap<>();

  /**
   * No series yet.
   *
   * @param clock the wall clock: when a series starts
   */
  SigninCounter(Clock clock) {
    this.clock = clock;
  }

  /** Counts one provisioning of {@code username}'s session bound to {@code role}. */
  void increment(String role, String username) {
    counts.computeIfAbsent(new Key(role, username), absent -> new Count(clock.millis())).increment();
  }

  @Override
  public List<MetricFamilyDescriptor> getMetricFamilyDescriptors() {
    return FAMILIES;
  }

  @Override
  public MetricSnapshots collect() {
    List<CounterDataPointSnapshot> points = new ArrayList<>(counts.size());
    counts.forEach((key, count) -> points.add(count.snapshot(key)));
    return MetricSnapshots.of(new CounterSnapshot(METADATA, points));
  }
}
