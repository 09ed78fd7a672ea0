package dev.svc.bench;

/**
 * The floor: {@code access.main}'s four rules written by hand in Java over the request's record,
 * with the same decision and reason.
 */
final class PlainJavaPeer implements AccessPeer<AccessRequest> {

  /** A decision and its reason. */
  record Outcome(boolean allow, String reason) {}

  @Override
  public AccessRequest prepare(AccessRequest request) {
    return request;
  }

  @Override
  public Object decide(AccessRequest r) {
    boolean member = r.teams().contains(r.team());
    boolean delete = r.action().equals("delete");
    if (r.admin()) {
      return new Outcome(true, "admin");
    }
    if (delete) {
      return new Outcome(false, "admin_only");
    }
    return member ? new Outcome(true, "team_member") : new Outcome(false, "not_member");
  }

  @Override
  public boolean allows(Object answer) {
    return ((Outcome) answer).allow();
  }

  @Override
  public void close() {}
}
