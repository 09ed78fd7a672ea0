package dev.svc.server.telemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.logs.LogRecordBuilder;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;

/**
 * Sends every java.util.logging record (what {@link System.Logger} writes to) through the
 * OpenTelemetry Logs API of the SDK, for export over OTLP: the message as the body, the level as the
 * severity, the logger's name as the instrumentation scope, the record's {@link LogFields} and a
 * thrown exception (as the semantic conventions' {@code exception.*}) as attributes; the trace and span of the current context, when a
 * span is current, come with it.
 *
 * <p>The exporter's own records (OpenTelemetry's and okhttp's loggers) are not sent: a failing export
 * would log, and that record would be exported again.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
final class OtelLogHandler extends Handler {

  private static final AttributeKey<String> EXCEPTION_TYPE = AttributeKey.stringKey("exception.type");
  private static final AttributeKey<String> EXCEPTION_MESSAGE = AttributeKey.stringKey("exception.message");
  private static final AttributeKey<String> EXCEPTION_STACKTRACE = AttributeKey.stringKey("exception.stacktrace");

  private final SdkLoggerProvider provider;

  OtelLogHandler(SdkLoggerProvider provider) {
    this.provider = provider;
  }

  /** A handler of {@code provider} on the root logger. */
  static OtelLogHandler install(SdkLoggerProvider provider) {
    OtelLogHandler handler = new OtelLogHandler(provider);
    LogManager.getLogManager().getLogger("").addHandler(handler);
    return handler;
  }

  /** Takes the handler off the root logger. */
  void uninstall() {
    LogManager.getLogManager().getLogger("").removeHandler(this);
  }

  @Override
  public void publish(LogRecord record) {
    String logger = record.getLoggerName() == null ? "" : record.getLoggerName();
    if (!isLoggable(record) || logger.startsWith("io.opentelemetry.") || logger.startsWith("okhttp3.")) {
      return;
    }
    LogRecordBuilder builder = provider.get(logger).logRecordBuilder()
        .setContext(Context.current())
        .setTimestamp(record.getInstant())
        .setSeverity(severity(record.getLevel()))
        .setSeverityText(record.getLevel().getName())
        .setBody(LogText.message(record));
    LogFields.of(record).values().forEach((name, value) -> attribute(builder, name, value));
    Throwable thrown = record.getThrown();
    if (thrown != null) {
      builder.setAttribute(EXCEPTION_TYPE, thrown.getClass().getName())
          .setAttribute(EXCEPTION_STACKTRACE, LogText.stackTrace(thrown));
      if (thrown.getMessage() != null) {
        builder.setAttribute(EXCEPTION_MESSAGE, thrown.getMessage());
      }
    }
    builder.emit();
  }

  private static void attribute(LogRecordBuilder builder, String name, Object value) {
    if (value instanceof Integer || value instanceof Long) {
      builder.setAttribute(AttributeKey.longKey(name), ((Number) value).longValue());
    } else if (value instanceof Double || value instanceof Float) {
      builder.setAttribute(AttributeKey.doubleKey(name), ((Number) value).doubleValue());
    } else if (value instanceof Boolean b) {
      builder.setAttribute(AttributeKey.booleanKey(name), b);
    } else {
      builder.setAttribute(AttributeKey.stringKey(name), String.valueOf(value));
    }
  }

  static Severity severity(Level level) {
    int value = level.intValue();
    if (value >= Level.SEVERE.intValue()) {
      return Severity.ERROR;
    }
    if (value >= Level.WARNING.intValue()) {
      return Severity.WARN;
    }
    if (value >= Level.INFO.intValue()) {
      return Severity.INFO;
    }
    return value >= Level.FINE.intValue() ? Severity.DEBUG : Severity.TRACE;
  }

  @Override
  public void flush() {
    // The provider's processor batches and flushes on its own schedule and at shutdown.
  }

  @Override
  public void close() {
    uninstall();
  }
}
