package dev.svc.supervisor.internal;

import dev.svc.engine.EvalRecords;
import dev.svc.engine.EvalResult;
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
 * <p>A record the engine wrote is scanned, not parsed ({@link EvalRecords#verdict}): this runs once
 * per evaluation, and a JSON parser took a tenth of the time of an evaluation's thread just to be
 * set up.
 *
 * <p><b>Thread safety:</b> stateless and thread-safe.
 */
public final class Decisions {

  /** The word of an evaluation whose record names no single decision. */
  public static final String NONE = "none";

  /** The word of an evaluation its timeout ended. */
  public static final String CANCELED = "error:canceled";

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
    EvalRecords.Verdict verdict = EvalRecords.verdict(record);
    return verdict.errorKind()
        .map(kind -> ERROR + (kind.isEmpty() ? UNKNOWN_ERROR : kind))
        .orElseGet(() -> verdict.decision().orElse(NONE));
  }
}
