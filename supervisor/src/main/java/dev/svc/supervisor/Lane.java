package dev.svc.supervisor;

/**
 * The two lines of {@link Pool#async} calls, each with threads of its own, so evaluations never wait
 * behind slow work.
 *
 * <p>Evaluations take milliseconds; compiles, checks, formats and test runs of large inputs may take
 * seconds. In one line, two slow calls on a pool of two instances would hold every thread and every
 * instance, and evaluations would wait behind them. So each lane has its own threads: as many as
 * instances for {@link #EVALUATIONS}, and {@link PoolOptions#operationInstances()} (half the instances,
 * at least one) for {@link #OPERATIONS}. Each thread holds at most one instance at a time, so slow work
 * holds at most that many instances and the rest are always left for evaluations. With a pool of one
 * instance nothing can be set aside: evaluations then share it with slow work.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public enum Lane {
  /** Evaluations and other calls on installed policies that take milliseconds. */
  EVALUATIONS,
  /** Everything else: installs, removals, check, format, explain, test. */
  OPERATIONS
}
