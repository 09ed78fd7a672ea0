package dev.svc.server.engine;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One install over the API, which its caller may stop waiting for: the install takes effect only if it
 * commits (its policy compiled in the first instance) before the caller's answer gives up on it
 * (abandons it), and never after. So an install answered 503 is never installed later, and one that
 * committed is answered as done, though it may still be copied into the other instances.
 *
 * <p><b>Thread safety:</b> thread-safe: the pool's thread commits, the event loop abandons.
 */
final class PendingInstall {

  private enum State { WAITING, COMMITTED, ABANDONED }

  private final AtomicReference<State> state = new AtomicReference<>(State.WAITING);
  private volatile PolicyCatalog.Installed installed;

  /**
   * Takes effect, unless abandoned first.
   *
   * @param what the catalog's answer for the install
   * @return true if it commits; false if it was abandoned, and must change nothing
   */
  boolean commit(PolicyCatalog.Installed what) {
    installed = what;
    return state.compareAndSet(State.WAITING, State.COMMITTED);
  }

  /**
   * Gives up on the install, unless it committed first.
   *
   * @return true if it is abandoned and will change nothing; false if it committed
   */
  boolean abandon() {
    return state.compareAndSet(State.WAITING, State.ABANDONED);
  }

  /**
   * Whether the caller gave up on it, so it needn't even start.
   *
   * @return true once abandoned
   */
  boolean abandoned() {
    return state.get() == State.ABANDONED;
  }

  /**
   * What the install committed.
   *
   * @return the catalog's answer, or empty when it hasn't committed
   */
  Optional<PolicyCatalog.Installed> committed() {
    return state.get() == State.COMMITTED ? Optional.of(installed) : Optional.empty();
  }
}
