package dev.svc.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * The login response (access-server spec §4.2): whose session, with which role, until when.
 *
 * @param username the short username
 * @param role the ClusterRole
 * @param until the end of the session's validity, with the offset the server wrote
 */
public record Session(String username, String role, OffsetDateTime until) {

  private static final String WHAT = "a session";

  /**
   * Reads a login response body.
   *
   * @param response an answer of {@code /login} or {@code /logout}
   * @return the session
   * @throws ClientException if the body isn't a login response
   */
  public static Session from(ApiResponse response) {
    JsonNode json = Answers.object(response, WHAT);
    String until = Answers.text(json, "until", WHAT);
    try {
      return new Session(Answers.text(json, "username", WHAT), Answers.text(json, "role", WHAT),
          OffsetDateTime.parse(until));
    } catch (DateTimeParseException e) {
      throw Answers.unreadable(WHAT, "`until` isn't an RFC 3339 time: " + until);
    }
  }
}
