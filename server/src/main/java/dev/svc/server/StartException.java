package dev.svc.server;

import java.util.Objects;

/**
 * The server can't start: what stopped it and what to do.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class StartException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String help;

  /**
   * A start-up failure.
   *
   * @param message what stopped the start, in one sentence
   * @param help what to do about it
   * @param cause what went wrong underneath, or null
   */
  public StartException(String message, String help, Throwable cause) {
    super(Objects.requireNonNull(message, "message"), cause);
    this.help = Objects.requireNonNull(help, "help");
  }

  /**
   * What to do about it.
   *
   * @return the help
   */
  public String help() {
    return help;
  }
}
