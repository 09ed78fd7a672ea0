package dev.svc.server.access;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Objects;

/**
 * A refusal or failure of the sign-in API, answered with its status and the error body of
 * access-server spec §4.1: {@code {"message": ..., "advice": [...], "cause": {...}}}, where the cause is
 * the error underneath (such as the Kubernetes API's own message), recursively.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class AccessError extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int status;
  private final transient List<String> advice;

  /**
   * An error.
   *
   * @param status the HTTP status, 4xx or 5xx
   * @param message the spec's message for it, such as {@code User not signed in}
   * @param advice what the caller can do; may be empty
   * @param cause what went wrong underneath, or null
   */
  public AccessError(int status, String message, List<String> advice, Throwable cause) {
    super(Objects.requireNonNull(message, "message"), cause, false, false);
    this.status = status;
    this.advice = List.copyOf(advice);
  }

  /**
   * The HTTP status to answer with.
   *
   * @return the status
   */
  public int status() {
    return status;
  }

  /**
   * What the caller can do about it.
   *
   * @return the advice, possibly empty
   */
  public List<String> advice() {
    return advice;
  }

  /**
   * The message of {@code failure} for a person: the Kubernetes API's own words for its refusals
   * (such as {@code svcsignins.access.svc.dev "svc-user-dana" not found}) rather than the client's
   * long description of the request.
   *
   * @param failure any failure
   * @return one line
   */
  static String describe(Throwable failure) {
    if (failure instanceof KubernetesClientException k && k.getStatus() != null && k.getStatus().getMessage() != null
        && !k.getStatus().getMessage().isEmpty()) {
      return k.getStatus().getMessage();
    }
    String message = failure.getMessage();
    return message == null ? failure.getClass().getSimpleName() : message.replace('\n', ' ');
  }
}
