package dev.svc.server.telemetry;

import dev.svc.server.config.SvcConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.exporter.otlp.metrics.OtlpGrpcMetricExporter;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * OpenTelemetry export over OTLP gRPC to {@code otel.endpoint}: spans (the HTTP layer makes one per
 * API request) and every metric of the server's registry. Without an endpoint nothing starts.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class Telemetry implements AutoCloseable {

  /** How often metrics are exported; a last export happens on {@link #close()}. */
  static final Duration METRIC_INTERVAL = Duration.ofSeconds(60);
  private static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(10);
  private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");

  private final OpenTelemetrySdk sdk;
  private final MicrometerOtelBridge bridge;

  private Telemetry(OpenTelemetrySdk sdk, MicrometerOtelBridge bridge) {
    this.sdk = sdk;
    this.bridge = bridge;
  }

  /**
   * Starts export when {@code config} names an endpoint.
   *
   * @param config the {@code otel.*} keys
   * @param registry the metrics to export alongside Prometheus
   * @return the running export, or empty without an endpoint
   */
  public static Optional<Telemetry> start(SvcConfig.Otel config, MeterRegistry registry) {
    return config.endpoint().map(endpoint -> start(endpoint, registry));
  }

  private static Telemetry start(URI endpoint, MeterRegistry registry) {
    Resource resource = Resource.getDefault().merge(Resource.create(Attributes.of(SERVICE_NAME, "svc")));
    OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
        .setTracerProvider(SdkTracerProvider.builder()
            .setResource(resource)
            .addSpanProcessor(BatchSpanProcessor.builder(
                OtlpGrpcSpanExporter.builder().setEndpoint(endpoint.toString()).build()).build())
            .build())
        .setMeterProvider(SdkMeterProvider.builder()
            .setResource(resource)
            .registerMetricReader(PeriodicMetricReader.builder(
                    OtlpGrpcMetricExporter.builder().setEndpoint(endpoint.toString()).build())
                .setInterval(METRIC_INTERVAL)
                .build())
            .build())
        // The SDK's default propagators do nothing: without this, no trace crosses a service boundary.
        .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
        .build();
    return new Telemetry(sdk, MicrometerOtelBridge.bind(registry, sdk.getMeter("dev.svc.server")));
  }

  /**
   * The SDK, for Vert.x's tracer.
   *
   * @return the running SDK
   */
  public OpenTelemetrySdk sdk() {
    return sdk;
  }

  /** Exports what is pending, then stops; waits up to 10 s for the collector. */
  @Override
  public void close() {
    // The last export reads the bridged meters: drop them only after it.
    sdk.shutdown().join(FLUSH_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    bridge.close();
  }
}
