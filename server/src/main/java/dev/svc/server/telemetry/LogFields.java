package dev.svc.server.telemetry;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The structured fields of a log line (access-server spec §10.2), passed as the one parameter of a
 * {@link System.Logger} call whose message is a fixed text, such as
 * {@code LOG.log(Level.WARNING, "auth rejected", LogFields.of("username", "dana", ...))}: the JSON
 * lines carry them as members, the readable lines as {@code key=value}, OTLP as attributes.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param values the fields in the order written; values are strings, numbers or booleans
 */
public record LogFields(Map<String, Object> values) {

  private static final LogFields NONE = new LogFields(Map.of());

  /**
   * Keeps the order of {@code values}.
   *
   * @param values the fields
   */
  public LogFields {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /**
   * Fields from alternating names and values.
   *
   * @param namesAndValues name, value, name, value, …
   * @return the fields, in that order
   * @throws IllegalArgumentException if a name lacks its value or isn't a string
   */
  public static LogFields of(Object... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("the field " + namesAndValues[namesAndValues.length - 1] + " has no value");
    }
    Map<String, Object> values = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      if (!(namesAndValues[i] instanceof String name)) {
        throw new IllegalArgumentException("field name " + namesAndValues[i] + " isn't a string");
      }
      values.put(name, namesAndValues[i + 1]);
    }
    return new LogFields(values);
  }

  /** The fields of a log record's parameters, or none. */
  static LogFields of(java.util.logging.LogRecord record) {
    Object[] params = record.getParameters();
    if (params != null) {
      for (Object param : params) {
        if (param instanceof LogFields fields) {
          return fields;
        }
      }
    }
    return NONE;
  }
}
