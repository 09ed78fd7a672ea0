package dev.svc.supervisor.internal;

import dev.svc.engine.EvalResult;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * What an evaluation decided, as one word for metrics ({@link dev.svc.supervisor.PoolListener#evaluated}):
 * the decision's name when the eval record has one (tooling spec §6.2: a kind that collects one
 * decision, with one outcome entry), {@link #NONE} when it has none (a kind that collects all, or
 * several entries), and {@code error:} with the error's kind ({@code error:runtime},
 * {@code error:conflict}, {@code error:assertion}, {@code error:canceled}) when the evaluation failed.
 * The words are as few as the kinds' decisions; the colon keeps an error apart from a decision's name,
 * which is an identifier.
 *
 * <p>A record the engine wrote is scanned, not parsed: this runs once per evaluation, and a JSON
 * parser took a tenth of the time of an evaluation's thread just to be set up. The scan reads the
 * record's top-level members up to {@code outcome} ({@code error} and {@code decision} come before
 * it), skipping the payload and the error's other members whole, strings with their escapes.
 *
 * <p><b>Thread safety:</b> stateless and thread-safe.
 */
public final class Decisions {

  /** The word of an evaluation whose record names no single decision. */
  public static final String NONE = "none";

  private static final String ERROR = "error:";
  private static final String UNKNOWN_ERROR = "unknown";

  private Decisions() {}

  /**
   * The word of a read eval record.
   *
   * @param result the record
   * @return the decision, {@link #NONE}, or {@code error:} and the error's kind
   */
  public static String of(EvalResult result) {
    return result.error()
        .map(error -> ERROR + error.kind().name().toLowerCase(Locale.ROOT))
        .orElseGet(() -> result.decision().orElse(NONE));
  }

  /**
   * The word of an eval record as the engine wrote it ({@link dev.svc.engine.Policy#evalJson}).
   *
   * @param record the record's JSON
   * @return the decision, {@link #NONE}, or {@code error:} and the error's kind; {@link #NONE} for
   *     bytes that aren't a record, which the engine doesn't write
   */
  public static String ofRecord(byte[] record) {
    try {
      return new Scan(record).record();
    } catch (IndexOutOfBoundsException e) {
      // The record ended early: not one the engine wrote.
      return NONE;
    }
  }

  /** One scan over a record's bytes. */
  private static final class Scan {
    private static final byte[] ERROR_MEMBER = bytes("error");
    private static final byte[] DECISION_MEMBER = bytes("decision");
    private static final byte[] OUTCOME_MEMBER = bytes("outcome");
    private static final byte[] KIND_MEMBER = bytes("kind");

    /** What to do at one member of an object: an answer ends the object's scan. */
    private interface Member {
      // INVARIANT: the scan stands before the member's value; with no answer, it is after it.
      String at(int name, int nameEnd);
    }

    private final byte[] in;
    private int at;
    private String decision = NONE;

    Scan(byte[] in) {
      this.in = in;
    }

    String record() {
      if (next() != '{') {
        return NONE;
      }
      String answer = members(this::recordMember);
      return answer != null ? answer : decision;
    }

    private String recordMember(int name, int nameEnd) {
      if (is(name, nameEnd, ERROR_MEMBER) && peek() == '{') {
        at++;
        String kind = members(this::errorMember);
        return ERROR + (kind != null ? kind : UNKNOWN_ERROR);
      } else if (is(name, nameEnd, DECISION_MEMBER) && peek() == '"') {
        at++;
        decision = string();
      } else if (is(name, nameEnd, OUTCOME_MEMBER)) {
        return decision;
      } else {
        skipValue();
      }
      return null;
    }

    private String errorMember(int name, int nameEnd) {
      if (is(name, nameEnd, KIND_MEMBER) && peek() == '"') {
        at++;
        return string();
      }
      skipValue();
      return null;
    }

    // INVARIANT: the scan stands after an object's `{`. The first answer of `member`, or null.
    private String members(Member member) {
      for (int b = next(); b == '"'; b = afterMember()) {
        int name = at;
        skipString();
        int nameEnd = at - 1;
        if (next() != ':') {
          return null;
        }
        String answer = member.at(name, nameEnd);
        if (answer != null) {
          return answer;
        }
      }
      return null;
    }

    // Whether the bytes from `start` to `end` (a string's text, without its quotes) are `word`.
    private boolean is(int start, int end, byte[] word) {
      return Arrays.equals(in, start, end, word, 0, word.length);
    }

    // After a member's value: the `"` of the next member's name, or what ends the object.
    private int afterMember() {
      int after = next();
      return after == ',' ? next() : after;
    }

    // The next byte that isn't white space, consumed.
    private int next() {
      int b = peek();
      at++;
      return b;
    }

    // The next byte that isn't white space, not consumed.
    private int peek() {
      while (in[at] == ' ' || in[at] == '\n' || in[at] == '\r' || in[at] == '\t') {
        at++;
      }
      return in[at];
    }

    // INVARIANT: the scan stands after a string's opening `"`. Decisions and kinds have no escapes.
    private String string() {
      int start = at;
      skipString();
      return new String(in, start, at - 1 - start, StandardCharsets.UTF_8);
    }

    private void skipString() {
      while (in[at] != '"') {
        at += in[at] == '\\' ? 2 : 1;
      }
      at++;
    }

    // Skips the value that starts at the next byte, nested objects and lists whole.
    private void skipValue() {
      int depth = 0;
      do {
        int b = next();
        if (b == '"') {
          skipString();
        } else if (b == '{' || b == '[') {
          depth++;
        } else if (b == '}' || b == ']') {
          depth--;
        } else if (b != ':' && b != ',') {
          // A number, true, false or null: up to what follows it.
          while (in[at] != ',' && in[at] != '}' && in[at] != ']' && in[at] > ' ') {
            at++;
          }
        }
      } while (depth > 0);
    }

    private static byte[] bytes(String word) {
      return word.getBytes(StandardCharsets.UTF_8);
    }
  }
}
