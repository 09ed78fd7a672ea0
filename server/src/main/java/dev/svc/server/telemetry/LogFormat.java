package dev.svc.server.telemetry;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * How {@code svc serve} writes its log lines (access-server spec §10.2): one JSON object a line,
 * or, with debug on, a line for people to read. Either carries the time in UTC (RFC 3339, milliseconds),
 * the level ({@code DEBUG}, {@code INFO}, {@code WARN}, {@code ERROR}), the logger, the message, the
 * record's {@link LogFields}, the {@code trace_id} and {@code span_id} of the span current when it
 * was logged (unless the fields name them), and a thrown exception's stack trace as {@code error}.
 *
 * <p>A JSON line: {@code {"time":"2026-11-27T14:37:00.123Z","level":"WARN",
 * "logger":"dev.svc.server.http.CallerAuthHandler","message":"auth rejected","username":"dana",
 * "reject_reason":"no_capability_rules","status_code":403}}
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class LogFormat extends Formatter {

  private static final JsonFactory JSON = new JsonFactory();

  private final boolean json;

  private LogFormat(boolean json) {
    this.json = json;
  }

  /**
   * JSON lines, for collectors.
   *
   * @return the format
   */
  public static LogFormat json() {
    return new LogFormat(true);
  }

  /**
   * Lines for people, for debugging: {@code time LEVEL logger: message key=value …}.
   *
   * @return the format
   */
  public static LogFormat readable() {
    return new LogFormat(false);
  }

  @Override
  public String format(LogRecord record) {
    String time = DateTimeFormatter.ISO_INSTANT.format(record.getInstant().truncatedTo(ChronoUnit.MILLIS));
    String level = level(record.getLevel());
    String logger = record.getLoggerName() == null ? "" : record.getLoggerName();
    Map<String, Object> fields = fields(record);
    return json ? jsonLine(time, level, logger, LogText.message(record), fields)
        : readableLine(time, level, logger, LogText.message(record), fields);
  }

  /** The spec's level names, those of tka's logger. */
  static String level(Level level) {
    int value = level.intValue();
    if (value >= Level.SEVERE.intValue()) {
      return "ERROR";
    }
    if (value >= Level.WARNING.intValue()) {
      return "WARN";
    }
    return value >= Level.INFO.intValue() ? "INFO" : "DEBUG";
  }

  private static Map<String, Object> fields(LogRecord record) {
    Map<String, Object> fields = new LinkedHashMap<>(LogFields.of(record).values());
    SpanContext span = Span.current().getSpanContext();
    if (span.isValid() && !fields.containsKey("trace_id")) {
      fields.put("trace_id", span.getTraceId());
      fields.put("span_id", span.getSpanId());
    }
    if (record.getThrown() != null) {
      fields.put("error", LogText.stackTrace(record.getThrown()));
    }
    return fields;
  }

  private static String jsonLine(String time, String level, String logger, String message, Map<String, Object> fields) {
    StringWriter line = new StringWriter();
    try (JsonGenerator out = JSON.createGenerator(line)) {
      out.writeStartObject();
      out.writeStringField("time", time);
      out.writeStringField("level", level);
      out.writeStringField("logger", logger);
      out.writeStringField("message", message);
      for (Map.Entry<String, Object> field : fields.entrySet()) {
        out.writeFieldName(field.getKey());
        writeValue(out, field.getValue());
      }
      out.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return line.append('\n').toString();
  }

  private static void writeValue(JsonGenerator out, Object value) throws IOException {
    if (value instanceof Integer || value instanceof Long) {
      out.writeNumber(((Number) value).longValue());
    } else if (value instanceof Double || value instanceof Float) {
      out.writeNumber(((Number) value).doubleValue());
    } else if (value instanceof Boolean b) {
      out.writeBoolean(b);
    } else {
      out.writeString(String.valueOf(value));
    }
  }

  private static String readableLine(String time, String level, String logger, String message,
      Map<String, Object> fields) {
    StringBuilder line = new StringBuilder(time).append(' ').append(level).append(' ').append(logger).append(": ")
        .append(message);
    String error = null;
    for (Map.Entry<String, Object> field : fields.entrySet()) {
      if (field.getKey().equals("error")) {
        error = String.valueOf(field.getValue());
      } else {
        line.append(' ').append(field.getKey()).append('=').append(field.getValue());
      }
    }
    line.append('\n');
    return error == null ? line.toString() : line.append(error).toString();
  }
}
