package dev.svc.supervisor.micrometer;

import dev.svc.supervisor.FailureKind;
import dev.svc.supervisor.PoolListener;
import dev.svc.supervisor.PoolStats;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * Records what a {@link dev.svc.supervisor.Pool} reports in a Micrometer registry. Give it to the
 * pool with {@link dev.svc.supervisor.PoolOptions.Builder#listener}. The only class of the supervisor
 * that uses Micrometer: the library needs Micrometer on the class path only when this class is used.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>Name</th><th>Type</th><th>Tags</th><th>What</th></tr>
 *   <tr><td>{@code svc.pool.evaluations}</td><td>timer</td><td>{@code policy}, {@code decision}</td>
 *       <td>evaluations that returned a result, and how long each ran; {@code decision} is the
 *       record's decision, {@code none}, or {@code error:} and the kind of a failed evaluation
 *       ({@link PoolListener#evaluated})</td></tr>
 *   <tr><td>{@code svc.pool.failures}</td><td>counter</td><td>{@code policy}, {@code kind}</td>
 *       <td>failed calls by {@link FailureKind} (lower case: {@code timeout}, {@code out_of_fuel},
 *       {@code stopped}, {@code refused}, {@code no_policy}, {@code busy}, {@code other})</td></tr>
 *   <tr><td>{@code svc.pool.rebuilds}</td><td>timer</td><td></td>
 *       <td>stopped instances back in service, and how long each took</td></tr>
 *   <tr><td>{@code svc.pool.rebuild.failures}</td><td>counter</td><td></td>
 *       <td>rebuild tries that failed and were retried</td></tr>
 *   <tr><td>{@code svc.pool.acquire}</td><td>timer</td><td></td>
 *       <td>how long calls waited for a free instance</td></tr>
 *   <tr><td>{@code svc.pool.queue}</td><td>timer</td><td></td>
 *       <td>how long async calls waited in line for a pool thread ({@link PoolListener#queued})</td></tr>
 *   <tr><td>{@code svc.pool.queue.busy}</td><td>counter</td><td></td>
 *       <td>async calls that waited in line past the acquire timeout and didn't run</td></tr>
 *   <tr><td>{@code svc.pool.instances}</td><td>gauge</td><td>{@code state}: {@code idle},
 *       {@code busy}, {@code rebuilding}</td><td>instances in each state</td></tr>
 * </table>
 *
 * <p>Every meter also carries the tags given to the constructor, which tell two pools apart. The
 * gauges are removed from the registry when the pool closes.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class MicrometerPoolListener implements PoolListener {

  private final MeterRegistry registry;
  private final Tags tags;
  private final Timer waits;
  private final Timer queueWaits;
  private final Counter queueBusy;
  private final Timer rebuilds;
  private final Counter rebuildFailures;
  private final List<Meter> gauges = new CopyOnWriteArrayList<>();
  // Looked up once per policy and decision: building a meter's id on every evaluation costs more
  // than the evaluation's bookkeeping should. Bounded like the tags: policies times decisions.
  private final Map<Evaluations, Timer> evaluations = new ConcurrentHashMap<>();

  /** The tags of one {@code svc.pool.evaluations} timer. */
  private record Evaluations(String policy, String decision) {}

  /**
   * A listener recording in {@code registry} without extra tags.
   *
   * @param registry where the meters go
   */
  public MicrometerPoolListener(MeterRegistry registry) {
    this(registry, Tags.empty());
  }

  /**
   * A listener recording in {@code registry}, every meter tagged with {@code tags}.
   *
   * @param registry where the meters go
   * @param tags tags for every meter, such as the pool's name
   */
  public MicrometerPoolListener(MeterRegistry registry, Iterable<Tag> tags) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
    this.waits = Timer.builder("svc.pool.acquire")
        .description("time calls waited for a free engine instance").tags(this.tags).register(registry);
    this.queueWaits = Timer.builder("svc.pool.queue")
        .description("time async calls waited in line for a pool thread").tags(this.tags).register(registry);
    this.queueBusy = Counter.builder("svc.pool.queue.busy")
        .description("async calls that waited in line longer than the acquire timeout and didn't run")
        .tags(this.tags).register(registry);
    this.rebuilds = Timer.builder("svc.pool.rebuilds")
        .description("stopped engine instances back in service, from the stop").tags(this.tags).register(registry);
    this.rebuildFailures = Counter.builder("svc.pool.rebuild.failures")
        .description("rebuild tries that failed and were retried").tags(this.tags).register(registry);
  }

  @Override
  public void attached(Supplier<PoolStats> stats) {
    gauge(stats, "idle", PoolStats::idle);
    gauge(stats, "busy", PoolStats::busy);
    gauge(stats, "rebuilding", PoolStats::rebuilding);
  }

  @Override
  public void waited(Duration waited) {
    waits.record(waited);
  }

  @Override
  public void queued(Duration waited, boolean busy) {
    queueWaits.record(waited);
    if (busy) {
      queueBusy.increment();
    }
  }

  @Override
  public void evaluated(String policy, String decision, Duration took) {
    evaluations.computeIfAbsent(new Evaluations(policy, decision), key -> Timer.builder("svc.pool.evaluations")
            .description("evaluations that returned a result, by what they decided")
            .tags(tags)
            .tag("policy", key.policy())
            .tag("decision", key.decision())
            .register(registry))
        .record(took);
  }

  @Override
  public void failed(String policy, FailureKind kind) {
    Counter.builder("svc.pool.failures")
        .description("calls on a policy that failed, by kind")
        .tags(tags)
        .tag("policy", policy)
        .tag("kind", kind.name().toLowerCase(Locale.ROOT))
        .register(registry)
        .increment();
  }

  @Override
  public void rebuilt(Duration took) {
    rebuilds.record(took);
  }

  @Override
  public void rebuildFailed(Throwable cause) {
    rebuildFailures.increment();
  }

  @Override
  public void closed() {
    gauges.forEach(registry::remove);
    gauges.clear();
  }

  private void gauge(Supplier<PoolStats> stats, String state, ToIntFunction<PoolStats> count) {
    gauges.add(
        Gauge.builder("svc.pool.instances", stats, s -> count.applyAsInt(s.get()))
            .description("engine instances of the pool by state")
            .tags(tags)
            .tag("state", state)
            .strongReference(true)
            .register(registry));
  }
}
