package dev.svc.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The server's error body (access-server spec §4.1): a message, advice, and the cause of the same
 * shape. {@link #decode} also reads the older shapes the spec names as fallbacks (§11.1).
 *
 * @param message the primary error text
 * @param advice what the user can do; may be empty
 * @param cause the underlying error
 */
public record ApiError(String message, List<String> advice, Optional<ApiError> cause) {

  private static final ObjectMapper JSON = new ObjectMapper();
  // An error chain deeper than this is cut: a hostile server must not make the client recurse forever.
  private static final int MAX_CAUSES = 32;

  /**
   * Copies the advice.
   *
   * @param message the primary error text
   * @param advice what the user can do
   * @param cause the underlying error
   */
  public ApiError {
    advice = List.copyOf(advice);
  }

  /**
   * What an unexpected answer says: the error body if it is one, else a JSON object's {@code error}
   * or {@code internal_error}, else the raw body, else the status alone.
   *
   * @param status the answer's HTTP status
   * @param body the answer's body
   * @return the problem to show
   */
  public static Problem decode(int status, byte[] body) {
    String text = new String(body, StandardCharsets.UTF_8).strip();
    JsonNode json = parse(text);
    if (json.path("message").isTextual()) {
      return read(json, 0).toProblem();
    }
    for (String field : List.of("error", "internal_error")) {
      if (json.path(field).isTextual()) {
        return Problem.of(json.path(field).asText());
      }
    }
    if (!text.isEmpty()) {
      return Problem.of(text);
    }
    return Problem.of("the server answered " + status + " without a message",
        "run the command again with --debug to see the request");
  }

  /**
   * The problem this error is: its message, the advice of its causes before its own, and its causes'
   * messages as root causes, outermost first.
   *
   * @return the problem
   */
  public Problem toProblem() {
    List<String> allAdvice = new ArrayList<>();
    List<String> causes = new ArrayList<>();
    collect(this, allAdvice, causes);
    return new Problem(message, allAdvice, causes.subList(1, causes.size()));
  }

  private static void collect(ApiError error, List<String> advice, List<String> causes) {
    causes.add(error.message);
    error.cause.ifPresent(inner -> collect(inner, advice, causes));
    advice.addAll(error.advice);
  }

  private static ApiError read(JsonNode json, int depth) {
    List<String> advice = new ArrayList<>();
    for (JsonNode item : json.path("advice")) {
      if (item.isTextual()) {
        advice.add(item.asText());
      }
    }
    JsonNode cause = json.path("cause");
    Optional<ApiError> inner = cause.path("message").isTextual() && depth < MAX_CAUSES
        ? Optional.of(read(cause, depth + 1))
        : Optional.empty();
    return new ApiError(json.path("message").asText(), advice, inner);
  }

  private static JsonNode parse(String text) {
    try {
      JsonNode node = JSON.readTree(text);
      return node == null ? JSON.missingNode() : node;
    } catch (IOException e) {
      return JSON.missingNode();
    }
  }
}
