package dev.svc.engine;

import java.util.Objects;

/**
 * The root of every error the engine library throws: a {@link #message() message} saying what failed
 * and a {@link #help() help} saying what to do about it.
 *
 * <p>Switch on the subtype rather than parsing text: {@link EngineException} means the engine refused
 * a request and the instance still works; {@link StoppedException} (and its subtypes) means the
 * instance is dead and must be rebuilt; {@link NoPolicyException} and {@link BusyException} come from
 * a pool of instances, which works on.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public abstract sealed class SvcException extends RuntimeException
    permits EngineException, StoppedException, NoPolicyException, BusyException {

  private static final long serialVersionUID = 1L;

  /** What failed, in one sentence without the help. */
  private final String message;

  /** What to do about it; empty when there is nothing to suggest. */
  private final String help;

  SvcException(String message, String help, Throwable cause) {
    super(message, cause);
    this.message = Objects.requireNonNull(message, "message");
    this.help = help == null ? "" : help;
  }

  /**
   * What failed, in one sentence without the help.
   *
   * @return the message
   */
  public String message() {
    return message;
  }

  /**
   * What to do about it.
   *
   * @return the help; empty when there is honestly nothing to suggest
   */
  public String help() {
    return help;
  }

  /**
   * Whether the instance that threw this can't be used again.
   *
   * @return true for {@link StoppedException} and its subtypes, false for the others
   */
  public abstract boolean isStopped();

  /** The message, then {@code "\n  help: "} and the help when there is one: a log line to act on. */
  @Override
  public String getMessage() {
    return help.isEmpty() ? message : message + "\n  help: " + help;
  }
}
