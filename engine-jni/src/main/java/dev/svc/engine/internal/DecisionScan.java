package dev.svc.engine.internal;

import dev.svc.engine.EvalRecords;
import java.util.Optional;

/**
 * Scans an eval record as the engine wrote it for what it decided ({@link EvalRecords#verdict}):
 * the record's top-level members up to {@code outcome} ({@code error} and {@code decision} come
 * before it), skipping the payload and the error's other members whole.
 *
 * <p><b>Thread safety:</b> stateless; thread-safe.
 */
public final class DecisionScan {

  private static final int ERROR = 0;
  private static final int DECISION = 1;
  private static final int OUTCOME = 2;
  private static final byte[][] RECORD_MEMBERS = JsonCursor.names("error", "decision", "outcome");
  private static final byte[][] ERROR_MEMBERS = JsonCursor.names("kind");
  private static final EvalRecords.Verdict UNDECIDED = new EvalRecords.Verdict(Optional.empty(), Optional.empty());

  private DecisionScan() {}

  /**
   * What {@code record} decided; see {@link EvalRecords#verdict}.
   *
   * @param record the record's JSON
   * @return the verdict; neither a decision nor an error for bytes that aren't a record
   */
  public static EvalRecords.Verdict scan(byte[] record) {
    try {
      return scan(JsonCursor.spaced(record));
    } catch (JsonCursor.Unexpected | IndexOutOfBoundsException e) {
      return UNDECIDED;
    }
  }

  private static EvalRecords.Verdict scan(JsonCursor json) {
    Optional<String> decision = Optional.empty();
    if (json.open('{', '}')) {
      do {
        switch (json.member(RECORD_MEMBERS)) {
          case ERROR -> {
            if (json.peek() == '{') {
              return new EvalRecords.Verdict(decision, Optional.of(errorKind(json)));
            }
            json.skipValue();
          }
          case DECISION -> {
            if (json.peek() == '"') {
              decision = Optional.of(json.string());
            } else {
              json.skipValue();
            }
          }
          case OUTCOME -> {
            return new EvalRecords.Verdict(decision, Optional.empty());
          }
          default -> json.skipValue();
        }
      } while (json.next('}'));
    }
    return new EvalRecords.Verdict(decision, Optional.empty());
  }

  // The error object's kind, read up to it; empty when the error names none.
  private static String errorKind(JsonCursor json) {
    if (json.open('{', '}')) {
      do {
        if (json.member(ERROR_MEMBERS) == 0 && json.peek() == '"') {
          return json.string();
        }
        json.skipValue();
      } while (json.next('}'));
    }
    return "";
  }
}
