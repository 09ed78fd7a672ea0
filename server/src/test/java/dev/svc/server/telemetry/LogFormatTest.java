package dev.svc.server.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/** The log lines of {@code svc serve}: JSON lines, or readable ones with debug (spec §10.2). */
class LogFormatTest {

  private static LogRecord record(Level level, String message, Object... params) {
    LogRecord record = new LogRecord(level, message);
    record.setLoggerName("dev.svc.server.http.CallerAuthHandler");
    record.setInstant(Instant.parse("2026-11-27T14:37:00.123456Z"));
    record.setParameters(params);
    return record;
  }

  private static LogRecord rejected() {
    return record(Level.WARNING, "auth rejected",
        LogFields.of("username", "dana", "reject_reason", "no_capability_rules", "status_code", 403));
  }

  @Test
  void a_json_line_has_time_level_logger_message_then_the_fields() {
    assertThat(LogFormat.json().format(rejected())).isEqualTo("{\"time\":\"2026-11-27T14:37:00.123Z\","
        + "\"level\":\"WARN\",\"logger\":\"dev.svc.server.http.CallerAuthHandler\",\"message\":\"auth rejected\","
        + "\"username\":\"dana\",\"reject_reason\":\"no_capability_rules\",\"status_code\":403}\n");
  }

  @Test
  void a_line_logged_in_a_span_carries_its_trace_and_span() {
    // A provider without a processor makes only invalid spans.
    Span span = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(InMemorySpanExporter.create())).build()
        .get("test").spanBuilder("request").startSpan();
    assertThat(span.getSpanContext().isValid()).isTrue();
    String line;
    try (Scope ignored = span.makeCurrent()) {
      line = LogFormat.json().format(record(Level.INFO, "who-is of {0} took {1} ms", "100.101.1.2:41000", 3));
    }

    assertThat(line).isEqualTo("{\"time\":\"2026-11-27T14:37:00.123Z\",\"level\":\"INFO\","
        + "\"logger\":\"dev.svc.server.http.CallerAuthHandler\",\"message\":\"who-is of 100.101.1.2:41000 took 3 ms\","
        + "\"trace_id\":\"" + span.getSpanContext().getTraceId() + "\",\"span_id\":\""
        + span.getSpanContext().getSpanId() + "\"}\n");
  }

  @Test
  void a_thrown_exception_is_the_error_field() {
    LogRecord record = record(Level.SEVERE, "handling \"GET /\" failed");
    record.setThrown(new IllegalStateException("boom"));

    String line = LogFormat.json().format(record);

    assertThat(line).startsWith("{\"time\":\"2026-11-27T14:37:00.123Z\",\"level\":\"ERROR\","
        + "\"logger\":\"dev.svc.server.http.CallerAuthHandler\",\"message\":\"handling \\\"GET /\\\" failed\","
        + "\"error\":\"java.lang.IllegalStateException: boom\\n\\tat ").endsWith("\"}\n");
  }

  @Test
  void a_readable_line_has_the_fields_as_key_value() {
    assertThat(LogFormat.readable().format(rejected())).isEqualTo("2026-11-27T14:37:00.123Z WARN"
        + " dev.svc.server.http.CallerAuthHandler: auth rejected username=dana reject_reason=no_capability_rules"
        + " status_code=403\n");
  }

  @Test
  void levels_are_named_as_in_the_spec() {
    assertThat(LogFormat.level(Level.SEVERE)).isEqualTo("ERROR");
    assertThat(LogFormat.level(Level.WARNING)).isEqualTo("WARN");
    assertThat(LogFormat.level(Level.INFO)).isEqualTo("INFO");
    assertThat(LogFormat.level(Level.CONFIG)).isEqualTo("DEBUG");
    assertThat(LogFormat.level(Level.FINE)).isEqualTo("DEBUG");
  }
}
