package dev.svc.engine;

import java.util.Objects;

/**
 * A pool was asked for a policy name that nothing installed under. The pool and its instances work
 * on.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class NoPolicyException extends SvcException {

  private static final long serialVersionUID = 1L;

  /** The policy name that was asked for. */
  private final String name;

  /**
   * The error for a name the pool doesn't know.
   *
   * @param name the policy name that was asked for
   */
  public NoPolicyException(String name) {
    super(
        "the pool has no policy named " + Objects.requireNonNull(name, "name"),
        "install it with Pool.install or Pool.compile before evaluating it",
        null);
    this.name = name;
  }

  /**
   * The name that was asked for.
   *
   * @return the policy name
   */
  public String name() {
    return name;
  }

  @Override
  public boolean isStopped() {
    return false;
  }
}
