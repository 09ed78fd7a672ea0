package dev.svc.supervisor;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * What a {@link Pool} reports as it works, for metrics and logs. Every method does nothing unless
 * overridden. {@link dev.svc.supervisor.micrometer.MicrometerPoolListener} records it all in a
 * Micrometer registry.
 *
 * <p>The pool calls these methods on the threads doing the work, callers' threads and its own, so
 * keep them short. An exception a method throws is logged and otherwise ignored: it never fails a
 * call or a rebuild.
 *
 * <p><b>Thread safety:</b> implementations must be thread-safe.
 */
public interface PoolListener {

  /**
   * The listener that does nothing.
   *
   * @return a listener without effects
   */
  static PoolListener none() {
    return new PoolListener() {};
  }

  /**
   * The pool started and will report to this listener; {@code stats} reads its state at any time
   * until it is {@link #closed()}, for gauges.
   *
   * @param stats reads the pool's {@link Pool#stats()}
   */
  default void attached(Supplier<PoolStats> stats) {}

  /**
   * A caller waited for a free instance, successfully or not.
   *
   * @param waited from asking for an instance to getting one, or to giving up
   */
  default void waited(Duration waited) {}

  /**
   * A call given to {@link Pool#async} waited for one of the pool's threads, and starts or is refused.
   *
   * @param lane the line it waited in
   * @param waited from submitting the call to a thread taking it
   * @param busy whether it waited in line past the acquire timeout and fails with a
   *     {@link dev.svc.engine.BusyException} without running
   */
  default void queued(Lane lane, Duration waited, boolean busy) {}

  /**
   * An evaluation returned its result, which may be a failed evaluation (a record with an error).
   *
   * @param policy the name the policy is installed under
   * @param decision what the record decided: the decision's name; {@code none} when it names no
   *     single decision (a kind that collects all, or several outcome entries); {@code error:} and
   *     the error's kind ({@code error:runtime}, {@code error:conflict}, {@code error:assertion},
   *     {@code error:canceled}) when the evaluation failed. As few values as the kind has decisions
   * @param took how long the evaluation ran on its instance, without the wait for the instance
   */
  default void evaluated(String policy, String decision, Duration took) {}

  /**
   * A policy is now installed under {@code policy}, new or in place of another: calls on the name
   * reach it from now on.
   *
   * @param policy the name it is installed under
   */
  default void installed(String policy) {}

  /**
   * Nothing is installed under {@code policy} any more: a listener keeping something per name can let
   * it go.
   *
   * @param policy the name it was installed under
   */
  default void removed(String policy) {}

  /**
   * A call on a policy (an evaluation, or a function given to {@link Pool#withPolicy}) failed.
   *
   * @param policy the name the caller asked for
   * @param kind what kind of error the caller got
   */
  default void failed(String policy, FailureKind kind) {}

  /**
   * An instance's linear memory changed, seen after a call on it: grew, since a module's memory only
   * grows, or started small again in a rebuilt instance. So the value is the instance's high-water
   * mark: what the largest call it served so far needed, plus what it holds (compiled policies). Each
   * instance reports its first size after its first call.
   *
   * @param instance which instance, from 0 to the pool's size - 1
   * @param bytes its memory now, a whole number of 64 KiB pages; at {@link
   *     dev.svc.engine.Limits#maxMemory()} when a call ran out of it
   */
  default void memory(int instance, long bytes) {}

  /**
   * A stopped instance is back in service, with every installed policy.
   *
   * @param took from the moment the pool saw it stopped to its return, pauses between tries included
   */
  default void rebuilt(Duration took) {}

  /**
   * One try at rebuilding a stopped instance failed: the fresh instance didn't start, or a policy
   * stopped it while being reinstalled. The pool pauses and tries again.
   *
   * @param cause why the try failed
   */
  default void rebuildFailed(Throwable cause) {}

  /** The pool closed; {@link #attached} stats are no longer worth reading. */
  default void closed() {}
}
