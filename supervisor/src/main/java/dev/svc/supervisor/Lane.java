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
 * <p><b>A smaller share of the processors, too.</b> Instances are not the only thing shared: a pool
 * has one instance per processor by default, so slow work that holds half the instances keeps half the
 * processors busy, and an evaluation that wakes up on a processor running slow work waits for the
 * scheduler to give it a turn (milliseconds under Linux's fair scheduler, the p99 of evaluations
 * measured with {@code scripts/abuse}). Fewer threads for slow work would leave none for a pool of two.
 * So the threads of {@link #OPERATIONS} run at {@link #OPERATIONS_PRIORITY}, below the evaluations'
 * normal priority: the scheduler then runs an evaluation first and gives slow work the time left over.
 * The JVM passes thread priorities to Linux only with {@code -XX:ThreadPriorityPolicy=1} (as nice 4 for
 * the lowest, or the nice value {@code -XX:JavaPriority1_To_OSPriority} gives); without it, both lanes
 * run at the same priority, as before.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public enum Lane {
  /** Evaluations and other calls on installed policies that take milliseconds. */
  EVALUATIONS,
  /** Everything else: installs, removals, check, format, explain, test. */
  OPERATIONS;

  /** The priority of the threads of {@link #OPERATIONS}: the lowest, see the class comment. */
  public static final int OPERATIONS_PRIORITY = Thread.MIN_PRIORITY;
}
