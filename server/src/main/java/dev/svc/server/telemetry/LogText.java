package dev.svc.server.telemetry;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/**
 * The texts of a log record, its message with the parameters filled in and its exception's stack
 * trace, for the formatter and the OTLP handler alike.
 */
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

  /** {@code thrown}'s stack trace as {@link Throwable#printStackTrace()} prints it. */
  static String stackTrace(Throwable thrown) {
    StringWriter trace = new StringWriter();
    thrown.printStackTrace(new PrintWriter(trace));
    return trace.toString();
  }
}
