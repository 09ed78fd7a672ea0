package dev.svc.engine;

import dev.svc.engine.internal.DecisionScan;
import java.util.Objects;
import java.util.Optional;

/**
 * Reading an eval record as the engine wrote it ({@link Policy#evalJson}) without binding it: for a
 * host that passes the record on as bytes and still wants to know what it decided, such as for
 * metrics. The record is scanned, not parsed: up to its {@code outcome}, the payload skipped whole.
 *
 * <p><b>Thread safety:</b> stateless; thread-safe.
 */
public final class EvalRecords {

  private EvalRecords() {}

  /**
   * What an evaluation decided, as its record says (tooling spec §6.2).
   *
   * @param decision the record's {@code decision}: present when the kind collects one decision and
   *     one outcome entry gave it
   * @param errorKind when the evaluation failed, its error's {@code kind} ({@code runtime}, {@code
   *     conflict}, {@code assertion}, {@code canceled}; empty text when the error names none)
   */
  public record Verdict(Optional<String> decision, Optional<String> errorKind) {

    /**
     * Checks that no part is null.
     *
     * @param decision the record's decision, if any
     * @param errorKind the error's kind, if the evaluation failed
     */
    public Verdict {
      Objects.requireNonNull(decision, "decision");
      Objects.requireNonNull(errorKind, "errorKind");
    }
  }

  /**
   * What {@code record} decided.
   *
   * @param record an eval record's compact JSON, as {@link Policy#evalJson} answers it
   * @return its decision and its error's kind; neither for bytes that aren't a record, which the
   *     engine doesn't write
   */
  public static Verdict verdict(byte[] record) {
    return DecisionScan.scan(Objects.requireNonNull(record, "record"));
  }
}
