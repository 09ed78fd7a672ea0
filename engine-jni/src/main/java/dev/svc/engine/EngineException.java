package dev.svc.engine;

import java.util.List;

/**
 * The engine refused a request: it answered {@code ok:false}, or the request could not be sent. The
 * instance keeps working.
 *
 * <p>{@link #diagnostics()} holds the problems that stopped the operation (a source that doesn't
 * parse, a bundle that doesn't check); it is empty for every other failure.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class EngineException extends SvcException {

  private static final long serialVersionUID = 1L;

  private final transient List<Diagnostic> diagnostics;

  /**
   * A refusal without diagnostics.
   *
   * @param message what failed, in one sentence: lower case first, no final period
   * @param help what to do about it; null or empty when there is nothing to suggest
   */
  public EngineException(String message, String help) {
    this(message, help, List.of(), null);
  }

  /**
   * A refusal caused by another exception.
   *
   * @param message what failed, in one sentence: lower case first, no final period
   * @param help what to do about it; null or empty when there is nothing to suggest
   * @param cause what went wrong underneath
   */
  public EngineException(String message, String help, Throwable cause) {
    this(message, help, List.of(), cause);
  }

  /**
   * A refusal with the diagnostics that caused it.
   *
   * @param message what failed, in one sentence: lower case first, no final period
   * @param help what to do about it; null or empty when there is nothing to suggest
   * @param diagnostics the problems found, in the engine's order; copied
   */
  public EngineException(String message, String help, List<Diagnostic> diagnostics) {
    this(message, help, diagnostics, null);
  }

  private EngineException(String message, String help, List<Diagnostic> diagnostics, Throwable cause) {
    super(message, help, cause);
    this.diagnostics = List.copyOf(diagnostics);
  }

  /**
   * The diagnostics that stopped the operation.
   *
   * @return the diagnostics in the engine's order, unmodifiable; empty when there are none
   */
  public List<Diagnostic> diagnostics() {
    return diagnostics;
  }

  @Override
  public boolean isStopped() {
    return false;
  }

  /** Message and help as {@link SvcException#getMessage()}, then one line per diagnostic. */
  @Override
  public String getMessage() {
    StringBuilder text = new StringBuilder(super.getMessage());
    for (Diagnostic d : diagnostics) {
      text.append("\n  ").append(d.render());
    }
    return text.toString();
  }
}
