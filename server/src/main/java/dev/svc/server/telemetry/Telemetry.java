package dev.svc.server.telemetry;

import dev.svc.server.config.SvcConfig;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.logs.OtlpGrpcLogRecordExporter;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * OpenTelemetry export to {@code otel.endpoint} (access-server spec §10.1): spans (the HTTP layer
 * makes one per API request) and the server's log records, over the OTLP transport the endpoint
 * names: one holding {@code 4317} is OTLP/gRPC, one holding {@code 4318} OTLP/HTTP, and any other
 * gets nothing exported (tka's rule), which the server logs once at start. Metrics are not
 * exported: they are Prometheus-only ({@code /metrics}). Closing flushes what is pending.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class Telemetry implements AutoCloseable {

  private static final Logger LOG = System.getLogger(Telemetry.class.getName());
  private static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(10);
  private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");

  /** The OTLP transport of an endpoint. */
  public enum Protocol {
    /** OTLP over gRPC, the collector's port 4317. */
    GRPC,
    /** OTLP over HTTP with protobuf bodies, the collector's port 4318. */
    HTTP;

    /**
     * The transport {@code endpoint} names: the whole text holding {@code 4317} is gRPC, holding
     * {@code 4318} HTTP (4317 first when both appear).
     *
     * @param endpoint the configured endpoint
     * @return the transport, or empty when the endpoint names neither
     */
    public static Optional<Protocol> of(URI endpoint) {
      String text = endpoint.toString();
      if (text.contains("4317")) {
        return Optional.of(GRPC);
      }
      return text.contains("4318") ? Optional.of(HTTP) : Optional.empty();
    }
  }

  private final OpenTelemetrySdk sdk;
  private final OtelLogHandler logs;

  private Telemetry(OpenTelemetrySdk sdk) {
    this.sdk = sdk;
    this.logs = OtelLogHandler.install(sdk.getSdkLoggerProvider());
  }

  /**
   * Starts export when {@code config} names an endpoint of a known transport.
   *
   * @param config the {@code otel.*} keys
   * @return the running export, or empty when nothing is exported
   */
  public static Optional<Telemetry> start(SvcConfig.Otel config) {
    if (config.endpoint().isEmpty()) {
      LOG.log(Level.INFO, "nothing is exported over OTLP: otel.endpoint is empty");
      return Optional.empty();
    }
    URI endpoint = config.endpoint().get();
    Optional<Protocol> protocol = Protocol.of(endpoint);
    if (protocol.isEmpty()) {
      LOG.log(Level.WARNING, "nothing is exported over OTLP: otel.endpoint " + endpoint + " holds neither 4317"
          + " (OTLP/gRPC) nor 4318 (OTLP/HTTP)");
      return Optional.empty();
    }
    LOG.log(Level.INFO, "exporting spans and logs over OTLP/" + protocol.get() + " to " + endpoint);
    return Optional.of(start(endpoint, protocol.get()));
  }

  /**
   * Exports through {@code sdk}, which the caller built and configured: for an application that embeds
   * the server with its own exporters, or a test that keeps the spans in memory.
   *
   * @param sdk the SDK; {@link #close()} shuts it down
   * @return the export, with the server's log records going to {@code sdk}'s logger provider too
   */
  public static Telemetry over(OpenTelemetrySdk sdk) {
    return new Telemetry(sdk);
  }

  private static Telemetry start(URI endpoint, Protocol protocol) {
    Resource resource = Resource.getDefault().merge(Resource.create(Attributes.of(SERVICE_NAME, "svc")));
    OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
        .setTracerProvider(SdkTracerProvider.builder()
            .setResource(resource)
            .addSpanProcessor(BatchSpanProcessor.builder(spanExporter(endpoint, protocol)).build())
            .build())
        .setLoggerProvider(SdkLoggerProvider.builder()
            .setResource(resource)
            .addLogRecordProcessor(BatchLogRecordProcessor.builder(logExporter(endpoint, protocol)).build())
            .build())
        // The SDK's default propagators do nothing: without this, no trace crosses a service boundary.
        .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
        .build();
    return new Telemetry(sdk);
  }

  // gRPC names its service in the path itself; OTLP/HTTP posts to the signal's path on the endpoint's host.
  private static SpanExporter spanExporter(URI endpoint, Protocol protocol) {
    return switch (protocol) {
      case GRPC -> OtlpGrpcSpanExporter.builder().setEndpoint(endpoint.toString()).build();
      case HTTP -> OtlpHttpSpanExporter.builder().setEndpoint(endpoint.resolve("/v1/traces").toString()).build();
    };
  }

  private static LogRecordExporter logExporter(URI endpoint, Protocol protocol) {
    return switch (protocol) {
      case GRPC -> OtlpGrpcLogRecordExporter.builder().setEndpoint(endpoint.toString()).build();
      case HTTP -> OtlpHttpLogRecordExporter.builder().setEndpoint(endpoint.resolve("/v1/logs").toString()).build();
    };
  }

  /**
   * The SDK, for Vert.x's tracer.
   *
   * @return the running SDK
   */
  public OpenTelemetrySdk sdk() {
    return sdk;
  }

  /** Stops sending log records, exports what is pending, then stops; waits up to 10 s for the collector. */
  @Override
  public void close() {
    logs.uninstall();
    sdk.shutdown().join(FLUSH_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
  }
}
