package dev.svc.supervisor.internal;

import dev.svc.supervisor.FailureKind;
import dev.svc.supervisor.Lane;
import dev.svc.supervisor.PoolListener;
import dev.svc.supervisor.PoolStats;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Passes every report on to the pool's listener and keeps what that listener throws away from the
 * pool: an exception there is logged, and the call or rebuild that reported goes on.
 *
 * <p><b>Thread safety:</b> thread-safe if the listener it wraps is.
 */
public final class GuardedListener implements PoolListener {

  private static final Logger LOG = System.getLogger(GuardedListener.class.getName());

  private final PoolListener listener;

  /**
   * Guards {@code listener}.
   *
   * @param listener the listener the pool was given
   */
  public GuardedListener(PoolListener listener) {
    this.listener = listener;
  }

  @Override
  public void attached(Supplier<PoolStats> stats) {
    guard("attached", () -> listener.attached(stats));
  }

  @Override
  public void waited(Duration waited) {
    guard("waited", () -> listener.waited(waited));
  }

  @Override
  public void queued(Lane lane, Duration waited, boolean busy) {
    guard("queued", () -> listener.queued(lane, waited, busy));
  }

  @Override
  public void installed(String policy) {
    guard("installed", () -> listener.installed(policy));
  }

  @Override
  public void removed(String policy) {
    guard("removed", () -> listener.removed(policy));
  }

  @Override
  public void evaluated(String policy, String decision, Duration took) {
    guard("evaluated", () -> listener.evaluated(policy, decision, took));
  }

  @Override
  public void failed(String policy, FailureKind kind) {
    guard("failed", () -> listener.failed(policy, kind));
  }

  @Override
  public void memory(int instance, long bytes) {
    guard("memory", () -> listener.memory(instance, bytes));
  }

  @Override
  public void rebuilt(Duration took) {
    guard("rebuilt", () -> listener.rebuilt(took));
  }

  @Override
  public void rebuildFailed(Throwable cause) {
    guard("rebuildFailed", () -> listener.rebuildFailed(cause));
  }

  @Override
  public void closed() {
    guard("closed", listener::closed);
  }

  private void guard(String method, Runnable report) {
    try {
      report.run();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "the pool listener's " + method + " threw; the pool goes on without that report", e);
    }
  }
}
