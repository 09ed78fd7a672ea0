package dev.svc.cli.policy;

import dev.svc.engine.Diagnostic;
import java.util.List;

/**
 * Compact JSON of the records the command builds itself (fmt's file records), field by field in the
 * reference's order, strings escaped as the engine escapes them.
 */
final class RecordJson {

  private final StringBuilder out = new StringBuilder("{");

  /** A string field. */
  RecordJson string(String name, String value) {
    return field(name, GoJson.quote(value));
  }

  /** A boolean field. */
  RecordJson bool(String name, boolean value) {
    return field(name, Boolean.toString(value));
  }

  /** A field holding JSON already written. */
  RecordJson raw(String name, String json) {
    return field(name, json);
  }

  /** The object. */
  String end() {
    return out.append('}').toString();
  }

  private RecordJson field(String name, String json) {
    if (out.length() > 1) {
      out.append(',');
    }
    out.append(GoJson.quote(name)).append(':').append(json);
    return this;
  }

  /** The Diagnostic record of tooling spec §2, empty parts left out. */
  static String diagnostic(Diagnostic d) {
    RecordJson record = new RecordJson().string("severity", d.severity());
    d.lint().ifPresent(v -> record.string("lint", v));
    d.file().ifPresent(v -> record.string("file", v));
    d.document().ifPresent(v -> record.string("document", v));
    record.string("message", d.message());
    d.help().ifPresent(v -> record.string("help", v));
    if (d.line() > 0) {
      record.raw("line", Integer.toString(d.line()));
    }
    if (d.column() > 0) {
      record.raw("column", Integer.toString(d.column()));
    }
    return record.end();
  }

  /** A JSON list of already-written values. */
  static String list(List<String> items) {
    return "[" + String.join(",", items) + "]";
  }
}
