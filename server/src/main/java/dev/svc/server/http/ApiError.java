package dev.svc.server.http;

import java.util.Objects;

/**
 * A request the server refuses, with the HTTP status to answer and the {@code message} and
 * {@code help} of the JSON body, and the error underneath when there is one (such as the mesh's
 * who-is failure): the sign-in API answers it as the body's {@code cause}, the engine API after the
 * help. Handlers fail their routing context with it; {@link ApiErrors} writes the answer.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class ApiError extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int status;
  private final String help;

  /**
   * A refusal.
   *
   * @param status the HTTP status, 4xx or 5xx
   * @param message what is wrong, in one sentence
   * @param help what the caller can do about it
   */
  public ApiError(int status, String message, String help) {
    this(status, message, help, null);
  }

  /**
   * A refusal because of another error.
   *
   * @param status the HTTP status, 4xx or 5xx
   * @param message what is wrong, in one sentence
   * @param help what the caller can do about it
   * @param cause what went wrong underneath, or null
   */
  public ApiError(int status, String message, String help, Throwable cause) {
    super(Objects.requireNonNull(message, "message"), cause, false, false);
    this.status = status;
    this.help = Objects.requireNonNull(help, "help");
  }

  /**
   * The HTTP status to answer with.
   *
   * @return the status code
   */
  public int status() {
    return status;
  }

  /**
   * What the caller can do about it.
   *
   * @return the help
   */
  public String help() {
    return help;
  }
}
