package dev.svc.bench;

import java.util.List;

/**
 * One request of the server's example decision {@code access.main} (conf/policies): a user with
 * teams, an action, a resource with a team. The peer benchmark ({@link PeerDecision}) asks every
 * peer the same three.
 *
 * @param user the user's name
 * @param teams the teams the user is in
 * @param admin whether the user is an admin
 * @param action {@code read}, {@code write} or {@code delete}
 * @param resource the resource's name
 * @param team the team that owns the resource
 */
public record AccessRequest(
    String user, List<String> teams, boolean admin, String action, String resource, String team) {

  /** The caller of each benchmark row. */
  public enum Caller {
    /** A member of the resource's team reading it: allowed as a team member. */
    MEMBER(new AccessRequest("ann", List.of("payments", "search"), false, "read", "ledger", "payments")),
    /** An admin in no team deleting it: allowed as an admin. */
    ADMIN(new AccessRequest("root", List.of(), true, "delete", "ledger", "payments")),
    /** A user of another team reading it: denied, not a member. */
    OUTSIDER(new AccessRequest("eve", List.of("marketing"), false, "read", "ledger", "payments"));

    final AccessRequest request;

    Caller(AccessRequest request) {
      this.request = request;
    }
  }

  /** The request as {@code access.main}'s input document. */
  String inputJson() {
    StringBuilder teamsJson = new StringBuilder("[");
    for (String t : teams) {
      teamsJson.append(teamsJson.length() > 1 ? "," : "").append('"').append(t).append('"');
    }
    return "{\"user\":{\"name\":\"" + user + "\",\"teams\":" + teamsJson + "],\"admin\":" + admin
        + "},\"action\":\"" + action + "\",\"resource\":{\"name\":\"" + resource + "\",\"team\":\""
        + team + "\"}}";
  }
}
