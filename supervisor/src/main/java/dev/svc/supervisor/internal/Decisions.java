package dev.svc.supervisor.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.svc.engine.EvalResult;
import java.io.IOException;

/**
 * What an evaluation decided, as one word for metrics ({@link dev.svc.supervisor.PoolListener#evaluated}):
 * the decision's name when the eval record has one (tooling spec §6.2: a kind that collects one
 * decision, with one outcome entry), {@link #NONE} when it has none (a kind that collects all, or
 * several entries), and {@code error:} with the error's kind ({@code error:runtime},
 * {@code error:conflict}, {@code error:assertion}, {@code error:canceled}) when the evaluation failed.
 * The words are as few as the kinds' decisions; the colon keeps an error apart from a decision's name,
 * which is an identifier.
 *
 * <p><b>Thread safety:</b> stateless and thread-safe.
 */
public final class Decisions {

  /** The word of an evaluation whose record names no single decision. */
  public static final String NONE = "none";

  private static final String ERROR = "error:";
  private static final JsonFactory JSON = new JsonFactory();

  private Decisions() {}

  /**
   * The word of a read eval record.
   *
   * @param result the record
   * @return the decision, {@link #NONE}, or {@code error:} and the error's kind
   */
  public static String of(EvalResult result) {
    return result.error().map(error -> ERROR + error.kind()).orElseGet(() -> result.decision().orElse(NONE));
  }

  /**
   * The word of an eval record as the engine wrote it ({@link dev.svc.engine.Policy#evalJson}). Reads
   * only the members before {@code outcome}: {@code error} and {@code decision} come first, and the
   * payload before them is skipped, not read.
   *
   * @param record the record's JSON
   * @return the decision, {@link #NONE}, or {@code error:} and the error's kind; {@link #NONE} for
   *     bytes that aren't a record, which the engine doesn't write
   */
  public static String ofRecord(byte[] record) {
    try (JsonParser parser = JSON.createParser(record)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return NONE;
      }
      String decision = NONE;
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String member = parser.currentName();
        JsonToken value = parser.nextToken();
        if (member.equals("error") && value == JsonToken.START_OBJECT) {
          return ERROR + errorKind(parser);
        } else if (member.equals("decision") && value == JsonToken.VALUE_STRING) {
          decision = parser.getText();
        } else if (member.equals("outcome")) {
          return decision;
        } else {
          parser.skipChildren();
        }
      }
      return decision;
    } catch (IOException e) {
      return NONE;
    }
  }

  // INVARIANT: the parser stands on the START_OBJECT of the record's error.
  private static String errorKind(JsonParser parser) throws IOException {
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String member = parser.currentName();
      if (parser.nextToken() == JsonToken.VALUE_STRING && member.equals("kind")) {
        return parser.getText();
      }
      parser.skipChildren();
    }
    return "unknown";
  }
}
