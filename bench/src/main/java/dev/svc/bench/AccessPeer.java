package dev.svc.bench;

/**
 * One implementation of {@code access.main}'s decision in the peer benchmark: svc, jCasbin's RBAC
 * and ABAC models, plain Java.
 *
 * @param <Q> the request in the peer's own form, prepared outside the timed part
 */
interface AccessPeer<Q> extends AutoCloseable {

  /** The request in the peer's own form (a JSON tree, enforcer arguments, Java objects). */
  Q prepare(AccessRequest request);

  /** The timed part: the peer's answer, as it gives it. */
  Object decide(Q request);

  /** Whether an answer of {@link #decide} allows. */
  boolean allows(Object answer);

  @Override
  void close();
}
