package dev.svc.bench;

import java.util.List;

/**
 * jCasbin's ABAC model: the request carries the user and the resource as objects, and the matcher
 * reads their attributes, as svc's policy reads its input; there are no policy rows.
 */
final class CasbinAbacPeer extends CasbinPeer {

  private static final String MODEL =
      """
      [request_definition]
      r = user, act, res

      [policy_definition]
      p = sub, obj, act

      [policy_effect]
      e = some(where (p.eft == allow))

      [matchers]
      m = r.user.admin || r.act != "delete" && include(r.user.teams, r.res.team)
      """;

  /** The user as the matcher reads it (jCasbin reads attributes through getters). */
  public static final class User {
    private final String name;
    private final List<String> teams;
    private final boolean admin;

    User(String name, List<String> teams, boolean admin) {
      this.name = name;
      this.teams = teams;
      this.admin = admin;
    }

    /** @return the name */
    public String getName() {
      return name;
    }

    /** @return the teams */
    public List<String> getTeams() {
      return teams;
    }

    /** @return whether an admin */
    public boolean getAdmin() {
      return admin;
    }
  }

  /** The resource as the matcher reads it. */
  public static final class Resource {
    private final String name;
    private final String team;

    Resource(String name, String team) {
      this.name = name;
      this.team = team;
    }

    /** @return the name */
    public String getName() {
      return name;
    }

    /** @return the owning team */
    public String getTeam() {
      return team;
    }
  }

  CasbinAbacPeer() {
    super(MODEL);
  }

  @Override
  public Object[] prepare(AccessRequest r) {
    return new Object[] {
      new User(r.user(), r.teams(), r.admin()), r.action(), new Resource(r.resource(), r.team())
    };
  }
}
