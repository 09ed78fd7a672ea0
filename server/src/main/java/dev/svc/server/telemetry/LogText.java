package dev.svc.server.telemetry;

import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/** The text of a log record, its parameters filled in, for the formatter and the OTLP handler alike. */
final class LogText {

  // Formatter.formatMessage reads only the record: one instance serves every thread.
  private static final Formatter MESSAGES = new Formatter() {
    @Override
    public String format(LogRecord record) {
      return formatMessage(record);
    }
  };

  private LogText() {}

  /** The message of {@code record} with its parameters filled in; empty when it has none. */
  static String message(LogRecord record) {
    String text = MESSAGES.formatMessage(record);
    return text == null ? "" : text;
  }
}
