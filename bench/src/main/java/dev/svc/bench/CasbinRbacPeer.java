package dev.svc.bench;


/**
 * jCasbin's RBAC model: users' teams and the admin role are role assignments ({@code g}) held by
 * the enforcer, loaded once for the benchmark's users; a request names the user, the resource's
 * team and the action. Admins may do anything; members of the resource's team may read and write.
 */
final class CasbinRbacPeer extends CasbinPeer {

  private static final String MODEL =
      """
      [request_definition]
      r = sub, team, act

      [policy_definition]
      p = role, act

      [role_definition]
      g = _, _

      [policy_effect]
      e = some(where (p.eft == allow))

      [matchers]
      m = r.act == p.act && (p.role == "admin" && g(r.sub, "admin") || p.role == "member" && g(r.sub, r.team))
      """;

  CasbinRbacPeer() {
    super(MODEL);
    for (String action : new String[] {"read", "write", "delete"}) {
      enforcer.addPolicy("admin", action);
    }
    enforcer.addPolicy("member", "read");
    enforcer.addPolicy("member", "write");
    for (AccessRequest.Caller caller : AccessRequest.Caller.values()) {
      AccessRequest r = caller.request;
      r.teams().forEach(team -> enforcer.addGroupingPolicy(r.user(), team));
      if (r.admin()) {
        enforcer.addGroupingPolicy(r.user(), "admin");
      }
    }
  }

  @Override
  public Object[] prepare(AccessRequest request) {
    return new Object[] {request.user(), request.team(), request.action()};
  }
}
