package dev.svc.server.mesh.tailnet;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * One line of the daemon's IPN bus ({@code watch-ipn-bus}): only what changed is present.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param state the new backend state, when it changed
 * @param browseToUrl a login URL to open, when one was issued
 * @param errMessage a failure, such as a rejected auth key; login failures are reported only here
 * @param loginFinished true when an interactive login completed
 */
public record BusNotification(
    Optional<BackendState> state, Optional<String> browseToUrl, Optional<String> errMessage, boolean loginFinished) {

  /**
   * Reads one bus line.
   *
   * @param json the line's object
   * @return the notification
   * @throws IllegalArgumentException when a member has the wrong type or the state is unknown
   */
  static BusNotification parse(JsonNode json) {
    if (!json.isObject()) {
      throw new IllegalArgumentException("a bus line is not an object");
    }
    JsonNode stateCode = json.get("State");
    Optional<BackendState> state = Optional.empty();
    if (stateCode != null && !stateCode.isNull()) {
      if (!stateCode.isIntegralNumber()) {
        throw new IllegalArgumentException("`State` is not a number");
      }
      state = Optional.of(BackendState.ofCode(stateCode.longValue())
          .orElseThrow(() -> new IllegalArgumentException("unknown `State` " + stateCode)));
    }
    return new BusNotification(state, nonEmpty(WireJson.text(json, "BrowseToURL")),
        nonEmpty(WireJson.text(json, "ErrMessage")), WireJson.object(json, "LoginFinished") != null);
  }

  private static Optional<String> nonEmpty(String text) {
    return text.isEmpty() ? Optional.empty() : Optional.of(text);
  }
}
