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
 * <p><b>The share of the processors</b> follows: a pool has one instance per processor by default, so
 * slow work, on half the threads, keeps at most half the processors busy (one of two on a machine of
 * two). Fewer would leave it none. A lower priority for its threads was tried as well, so that an
 * evaluation waking on a processor busy with slow work would run first (Linux nice 4 through the JVM's
 * {@code -XX:ThreadPriorityPolicy=1}), and measured with {@code scripts/abuse} on a shared machine of
 * two cores, back to back, as the evaluations' p99 beside two heavy requests. Under a load of 20 to 29
 * it was worse (233 ms against 64 ms, 553 ms against 222 ms): a starved thread of slow work holds up
 * each safepoint of the JVM (a garbage collection stops every thread until all have reached one) and
 * each lock it holds for a moment (the pool's, the epoch ticker's), and evaluations wait for it. Under
 * a load of 4 to 5 it made no clear difference (15 and 24 ms against 38, 22 and 20 ms). So both lanes
 * run at normal priority.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public enum Lane {
  /** Evaluations and other calls on installed policies that take milliseconds. */
  EVALUATIONS,
  /** Everything else: installs, removals, check, format, explain, test. */
  OPERATIONS
}
