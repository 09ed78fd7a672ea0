package dev.svc.server.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.SimpleLogRecordProcessor;
import io.opentelemetry.sdk.testing.exporter.InMemoryLogRecordExporter;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/** java.util.logging records as OpenTelemetry log records, in the trace of the span current when logged. */
class OtelLogHandlerTest {

  private final InMemoryLogRecordExporter exporter = InMemoryLogRecordExporter.create();
  private final OtelLogHandler handler = new OtelLogHandler(SdkLoggerProvider.builder()
      .addLogRecordProcessor(SimpleLogRecordProcessor.create(exporter)).build());

  private static LogRecord record(Level level, String logger, String message, Object... params) {
    LogRecord record = new LogRecord(level, message);
    record.setLoggerName(logger);
    record.setParameters(params);
    return record;
  }

  @Test
  void a_record_logged_in_a_span_carries_its_trace_and_span() {
    // A provider without a processor makes only invalid spans.
    Span span = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(InMemorySpanExporter.create())).build()
        .get("test").spanBuilder("request").startSpan();
    assertThat(span.getSpanContext().isValid()).isTrue();
    try (Scope ignored = span.makeCurrent()) {
      handler.publish(record(Level.WARNING, "dev.svc.server.http.CallerAuthHandler", "auth rejected"));
    }

    LogRecordData log = exporter.getFinishedLogRecordItems().get(0);
    assertThat(log.getSpanContext()).isEqualTo(span.getSpanContext());
    assertThat(log.getSeverity()).isEqualTo(Severity.WARN);
    assertThat(log.getSeverityText()).isEqualTo("WARNING");
    assertThat(log.getBodyValue().asString()).isEqualTo("auth rejected");
    assertThat(log.getInstrumentationScopeInfo().getName()).isEqualTo("dev.svc.server.http.CallerAuthHandler");
  }

  @Test
  void a_record_outside_any_span_has_none_and_its_parameters_and_exception_are_kept() {
    LogRecord record = record(Level.SEVERE, "dev.svc.server.SvcServer", "stopping {0} failed", "the mesh");
    record.setThrown(new IllegalStateException("socket gone"));

    handler.publish(record);

    LogRecordData log = exporter.getFinishedLogRecordItems().get(0);
    assertThat(log.getSpanContext()).isEqualTo(SpanContext.getInvalid());
    assertThat(log.getSeverity()).isEqualTo(Severity.ERROR);
    assertThat(log.getBodyValue().asString()).isEqualTo("stopping the mesh failed");
    assertThat(log.getAttributes().get(AttributeKey.stringKey("exception.type")))
        .isEqualTo("java.lang.IllegalStateException");
    assertThat(log.getAttributes().get(AttributeKey.stringKey("exception.message"))).isEqualTo("socket gone");
    assertThat(log.getAttributes().get(AttributeKey.stringKey("exception.stacktrace")))
        .startsWith("java.lang.IllegalStateException: socket gone");
  }

  @Test
  void the_exporters_own_records_are_not_exported_again() {
    handler.publish(record(Level.WARNING, "io.opentelemetry.exporter.internal.http.HttpExporter", "export failed"));
    handler.publish(record(Level.WARNING, "okhttp3.OkHttpClient", "leaked"));

    assertThat(exporter.getFinishedLogRecordItems()).isEmpty();
  }

  @Test
  void levels_map_to_severities() {
    assertThat(OtelLogHandler.severity(Level.SEVERE)).isEqualTo(Severity.ERROR);
    assertThat(OtelLogHandler.severity(Level.WARNING)).isEqualTo(Severity.WARN);
    assertThat(OtelLogHandler.severity(Level.INFO)).isEqualTo(Severity.INFO);
    assertThat(OtelLogHandler.severity(Level.FINE)).isEqualTo(Severity.DEBUG);
    assertThat(OtelLogHandler.severity(Level.FINEST)).isEqualTo(Severity.TRACE);
  }
}
