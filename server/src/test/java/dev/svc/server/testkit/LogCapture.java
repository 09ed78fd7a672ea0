package dev.svc.server.testkit;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The records logged under one logger name (and the names below it) while open: what the server
 * tells its operator, read by tests. The server logs through {@link System.Logger}, which is
 * java.util.logging here.
 */
public final class LogCapture implements AutoCloseable {

  // Held, so the logger (and the capture on it) lives as long as the capture.
  private final Logger logger;
  private final List<LogRecord> records = new CopyOnWriteArrayList<>();
  private final Handler handler = new Handler() {
    @Override
    public void publish(LogRecord record) {
      records.add(record);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  private LogCapture(String name) {
    this.logger = Logger.getLogger(name);
    logger.addHandler(handler);
  }

  /** Starts capturing the records of {@code name}, such as a class's or a package's name. */
  public static LogCapture of(String name) {
    return new LogCapture(name);
  }

  /** The records so far, oldest first. */
  public List<LogRecord> records() {
    return List.copyOf(records);
  }

  /** The messages so far, oldest first. */
  public List<String> messages() {
    return records.stream().map(LogRecord::getMessage).toList();
  }

  /** Forgets the records so far. */
  public void clear() {
    records.clear();
  }

  @Override
  public void close() {
    logger.removeHandler(handler);
  }
}
