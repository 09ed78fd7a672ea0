package dev.svc.server.telemetry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.Meter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;

/**
 * Every meter of a Micrometer registry as an OpenTelemetry instrument read at each export, so OTLP
 * carries the same metrics as {@code /metrics} (no Micrometer-to-OTLP registry can be had here).
 * Counters become counters; gauges gauges; timers and summaries a {@code .count} counter and a
 * {@code .sum} counter (seconds for timers); other meters one gauge per measurement.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
final class MicrometerOtelBridge implements AutoCloseable {

  private final MeterRegistry registry;
  private final Meter meter;
  private final Map<io.micrometer.core.instrument.Meter.Id, List<AutoCloseable>> instruments =
      new ConcurrentHashMap<>();

  private MicrometerOtelBridge(MeterRegistry registry, Meter meter) {
    this.registry = registry;
    this.meter = meter;
  }

  /** Mirrors {@code registry}'s meters, now and as they come and go, into {@code meter}. */
  static MicrometerOtelBridge bind(MeterRegistry registry, Meter meter) {
    MicrometerOtelBridge bridge = new MicrometerOtelBridge(registry, meter);
    registry.config().onMeterAdded(bridge::add).onMeterRemoved(bridge::remove);
    registry.getMeters().forEach(bridge::add);
    return bridge;
  }

  private void add(io.micrometer.core.instrument.Meter m) {
    String name = m.getId().getName();
    Attributes attributes = attributes(m.getId().getTags());
    List<AutoCloseable> added = new ArrayList<>(2);
    if (m instanceof Counter c) {
      added.add(counter(name, m, attributes, c::count));
    } else if (m instanceof FunctionCounter c) {
      added.add(counter(name, m, attributes, c::count));
    } else if (m instanceof TimeGauge g) {
      added.add(gauge(name, m, attributes, () -> g.value(TimeUnit.SECONDS)));
    } else if (m instanceof Gauge g) {
      added.add(gauge(name, m, attributes, g::value));
    } else if (m instanceof Timer t) {
      added.add(counter(name + ".count", m, attributes, t::count));
      added.add(counter(name + ".sum", m, attributes, () -> t.totalTime(TimeUnit.SECONDS)));
    } else if (m instanceof FunctionTimer t) {
      added.add(counter(name + ".count", m, attributes, t::count));
      added.add(counter(name + ".sum", m, attributes, () -> t.totalTime(TimeUnit.SECONDS)));
    } else if (m instanceof DistributionSummary s) {
      added.add(counter(name + ".count", m, attributes, s::count));
      added.add(counter(name + ".sum", m, attributes, s::totalAmount));
    } else if (m instanceof LongTaskTimer t) {
      added.add(gauge(name + ".active", m, attributes, t::activeTasks));
    } else {
      for (Measurement measurement : m.measure()) {
        String statistic = measurement.getStatistic().getTagValueRepresentation();
        added.add(gauge(name + "." + statistic, m, attributes, measurement::getValue));
      }
    }
    instruments.put(m.getId(), added);
  }

  private void remove(io.micrometer.core.instrument.Meter m) {
    List<AutoCloseable> removed = instruments.remove(m.getId());
    if (removed != null) {
      removed.forEach(MicrometerOtelBridge::closeQuietly);
    }
  }

  private AutoCloseable counter(String name, io.micrometer.core.instrument.Meter m, Attributes attributes,
      DoubleSupplier value) {
    return meter.counterBuilder(name).ofDoubles()
        .setDescription(Objects.requireNonNullElse(m.getId().getDescription(), ""))
        .buildWithCallback(out -> out.record(value.getAsDouble(), attributes));
  }

  private AutoCloseable gauge(String name, io.micrometer.core.instrument.Meter m, Attributes attributes,
      DoubleSupplier value) {
    return meter.gaugeBuilder(name)
        .setDescription(Objects.requireNonNullElse(m.getId().getDescription(), ""))
        .buildWithCallback(out -> {
          double v = value.getAsDouble();
          // A gauge whose object was collected reads NaN: there is nothing to report.
          if (!Double.isNaN(v)) {
            out.record(v, attributes);
          }
        });
  }

  private static Attributes attributes(List<Tag> tags) {
    AttributesBuilder builder = Attributes.builder();
    tags.forEach(tag -> builder.put(tag.getKey(), tag.getValue()));
    return builder.build();
  }

  private static void closeQuietly(AutoCloseable instrument) {
    try {
      instrument.close();
    } catch (Exception e) {
      // Closing an observable only drops its callback; there is nothing to recover.
    }
  }

  /** Stops mirroring: every instrument's callback is dropped. */
  @Override
  public void close() {
    registry.getMeters().forEach(this::remove);
  }
}
