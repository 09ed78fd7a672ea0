package dev.svc.supervisor.micrometer;

import dev.svc.supervisor.FailureKind;
import dev.svc.supervisor.Lane;
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
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
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
 *       {@code out_of_memory}, {@code stopped}, {@code refused}, {@code no_policy}, {@code busy}, {@code other})</td></tr>
 *   <tr><td>{@code svc.pool.rebuilds}</td><td>timer</td><td></td>
 *       <td>stopped instances back in service, and how long each took</td></tr>
 *   <tr><td>{@code svc.pool.rebuild.failures}</td><td>counter</td><td></td>
 *       <td>rebuild tries that failed and were retried</td></tr>
 *   <tr><td>{@code svc.pool.acquire}</td><td>timer</td><td></td>
 *       <td>how long calls waited for a free instance</td></tr>
 *   <tr><td>{@code svc.pool.queue}</td><td>timer</td><td>{@code lane}: {@code evaluations},
 *       {@code operations}</td>
 *       <td>how long async calls waited in line for a pool thread ({@link PoolListener#queued})</td></tr>
 *   <tr><td>{@code svc.pool.queue.busy}</td><td>counter</td><td>{@code lane}</td>
 *       <td>async calls that waited in line past the acquire timeout and didn't run</td></tr>
 *   <tr><td>{@code svc.pool.instances}</td><td>gauge</td><td>{@code state}: {@code idle},
 *       {@code busy}, {@code rebuilding}</td><td>instances in each state</td></tr>
 *   <tr><td>{@code svc.pool.memory}</td><td>gauge (bytes)</td><td>{@code instance}: {@code 0} to the
 *       size - 1</td><td>each instance's linear memory, its high-water mark
 *       ({@link PoolListener#memory})</td></tr>
 * </table>
 *
 * <p>Every meter also carries the tags given to the constructor, which tell two pools apart. The
 * gauges are removed from the registry when the pool closes.
 *
 * <p><b>Bounded series:</b> the {@code policy} tag names only policies installed now; calls on any
 * other name (never installed, or removed) share the one value {@value #UNKNOWN}, so callers that
 * make up names can't add series without end. When a policy is removed, its series go. Tag values are
 * cut to {@value #MAX_TAG_LENGTH} characters, and control characters in them become {@code _}, so a
 * name can't break the exposition format it ends up in.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class MicrometerPoolListener implements PoolListener {

  /** The tag of any policy name not installed now. */
  public static final String UNKNOWN = "unknown";

  /** The most characters of a tag value. */
  public static final int MAX_TAG_LENGTH = 128;

  private final MeterRegistry registry;
  private final Tags tags;
  private final Timer waits;
  private final Map<Lane, Timer> queueWaits = new EnumMap<>(Lane.class);
  private final Map<Lane, Counter> queueBusy = new EnumMap<>(Lane.class);
  private final Timer rebuilds;
  private final Counter rebuildFailures;
  private final List<Meter> gauges = new CopyOnWriteArrayList<>();
  // One per instance of the pool, so as many as its size.
  private final Map<Integer, AtomicLong> memory = new ConcurrentHashMap<>();
  // Looked up once per policy and decision: building a meter's id on every evaluation costs more
  // than the evaluation's bookkeeping should. Bounded like the tags: installed policies times decisions.
  private final Map<PolicyTags, Timer> evaluations = new ConcurrentHashMap<>();
  private final Map<PolicyTags, Counter> failures = new ConcurrentHashMap<>();
  private final Set<String> installed = ConcurrentHashMap.newKeySet();
  // Registering a policy's meter and removing a policy's meters exclude each other, so a call that
  // ends just as its policy goes can't leave a series behind.
  private final Object policyMeters = new Object();
  // Installs and removals so far: which tag a name gets changes with them, so a remembered meter is
  // good only while this count is the one it was looked up at. Counted after each change.
  private final AtomicLong changes = new AtomicLong();
  // The timer of the latest evaluation and what it was for. Under load nearly every evaluation is of
  // the same policy with the same decision as the one before, and records there without making its tags
  // again (two scans of the names, a set lookup, a key built, hashed and compared: the pool thread's
  // largest part of its own after the engine's, in a profile under scripts/load).
  private volatile Recent recent;

  /** The tags of one policy's meter: the policy and its decision or failure kind. */
  private record PolicyTags(String policy, String detail) {}

  /** The timer of evaluations of {@code policy} that decided {@code decision}, as of {@code changes}. */
  private record Recent(String policy, String decision, long changes, Timer timer) {}

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
    for (Lane lane : Lane.values()) {
      String name = lane.name().toLowerCase(Locale.ROOT);
      queueWaits.put(lane, Timer.builder("svc.pool.queue")
          .description("time async calls waited in line for a pool thread").tags(this.tags).tag("lane", name)
          .register(registry));
      queueBusy.put(lane, Counter.builder("svc.pool.queue.busy")
          .description("async calls that waited in line longer than the acquire timeout and didn't run")
          .tags(this.tags).tag("lane", name).register(registry));
    }
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
  public void queued(Lane lane, Duration waited, boolean busy) {
    queueWaits.get(lane).record(waited);
    if (busy) {
      queueBusy.get(lane).increment();
    }
  }

  @Override
  public void installed(String policy) {
    installed.add(policy);
    changes.incrementAndGet();
  }

  @Override
  public void removed(String policy) {
    synchronized (policyMeters) {
      installed.remove(policy);
      String tag = tagValue(policy);
      if (installed.stream().noneMatch(other -> tagValue(other).equals(tag))) {
        forget(evaluations, tag);
        forget(failures, tag);
      }
      changes.incrementAndGet();
    }
  }

  @Override
  public void evaluated(String policy, String decision, Duration took) {
    Recent latest = recent;
    if (latest != null && latest.changes() == changes.get() && latest.policy().equals(policy)
        && latest.decision().equals(decision)) {
      latest.timer().record(took);
      return;
    }
    // Read before the lookup: a change during it makes what is remembered stale at once.
    long now = changes.get();
    Timer timer = meter(evaluations, policy, decision, tags -> Timer.builder("svc.pool.evaluations")
        .description("evaluations that returned a result, by what they decided")
        .tags(this.tags)
        .tag("policy", tags.policy())
        .tag("decision", tags.detail())
        .register(registry));
    recent = new Recent(policy, decision, now, timer);
    timer.record(took);
  }

  @Override
  public void failed(String policy, FailureKind kind) {
    meter(failures, policy, kind.name().toLowerCase(Locale.ROOT), tags -> Counter.builder("svc.pool.failures")
        .description("calls on a policy that failed, by kind")
        .tags(this.tags)
        .tag("policy", tags.policy())
        .tag("kind", tags.detail())
        .register(registry)).increment();
  }

  // The meter of a policy's tags, registered once. Read without the lock on every call; registered
  // under it, with the policy's tag decided again there, since it may have been removed meanwhile.
  private <M extends Meter> M meter(Map<PolicyTags, M> meters, String policy, String detail,
      Function<PolicyTags, M> register) {
    M known = meters.get(new PolicyTags(policyTag(policy), tagValue(detail)));
    if (known != null) {
      return known;
    }
    synchronized (policyMeters) {
      return meters.computeIfAbsent(new PolicyTags(policyTag(policy), tagValue(detail)), register);
    }
  }

  // INVARIANT: runs under the policyMeters lock.
  private <M extends Meter> void forget(Map<PolicyTags, M> meters, String policyTag) {
    meters.entrySet().removeIf(entry -> {
      if (entry.getKey().policy().equals(policyTag)) {
        registry.remove(entry.getValue());
        return true;
      }
      return false;
    });
  }

  private String policyTag(String policy) {
    return installed.contains(policy) ? tagValue(policy) : UNKNOWN;
  }

  /**
   * {@code value} as a tag may carry it: control characters as {@code _}, at most
   * {@link #MAX_TAG_LENGTH} characters.
   *
   * @param value a policy name, a decision
   * @return the tag value
   */
  static String tagValue(String value) {
    String cut = value.length() > MAX_TAG_LENGTH ? value.substring(0, MAX_TAG_LENGTH) : value;
    StringBuilder tag = null;
    for (int i = 0; i < cut.length(); i++) {
      char c = cut.charAt(i);
      if (Character.isISOControl(c) || Character.isSurrogate(c)) {
        if (tag == null) {
          tag = new StringBuilder(cut);
        }
        tag.setCharAt(i, '_');
      }
    }
    return tag == null ? cut : tag.toString();
  }

  @Override
  public void memory(int instance, long bytes) {
    memory.computeIfAbsent(instance, this::memoryGauge).set(bytes);
  }

  private AtomicLong memoryGauge(int instance) {
    AtomicLong bytes = new AtomicLong();
    gauges.add(Gauge.builder("svc.pool.memory", bytes, AtomicLong::get)
        .description("an engine instance's linear memory: the most its calls needed so far")
        .baseUnit("bytes")
        .tags(tags)
        .tag("instance", Integer.toString(instance))
        .strongReference(true)
        .register(registry));
    return bytes;
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
    memory.clear();
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
