package dev.svc.supervisor;

import dev.svc.engine.BusyException;
import dev.svc.engine.CompileOptions;
import dev.svc.engine.Diagnostic;
import dev.svc.engine.Engine;
import dev.svc.engine.EngineException;
import dev.svc.engine.EngineModule;
import dev.svc.engine.EvalOptions;
import dev.svc.engine.EvalResult;
import dev.svc.engine.Explanation;
import dev.svc.engine.Isolation;
import dev.svc.engine.NoPolicyException;
import dev.svc.engine.Policy;
import dev.svc.engine.SourceFile;
import dev.svc.engine.StoppedException;
import dev.svc.engine.SvcException;
import dev.svc.engine.TimeoutException;
import dev.svc.supervisor.internal.Decisions;
import dev.svc.supervisor.internal.GuardedListener;
import dev.svc.supervisor.internal.PoolThreads;
import dev.svc.supervisor.internal.Rebuilder;
import dev.svc.supervisor.internal.Recipes;
import dev.svc.supervisor.internal.Slot;
import dev.svc.supervisor.internal.Slots;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A fixed number of engine instances of one {@link EngineModule}, the same policies installed in each, and
 * a supervisor that replaces an instance that stopped. Each call runs on a free instance, so calls
 * run in parallel up to the pool's size.
 *
 * <pre>{@code
 * try (Pool pool = Pool.create(module, 4)) {
 *   pool.compile("refunds", files, CompileOptions.defaults());
 *   EvalResult result = pool.evaluate("refunds", Map.of("amount", 40), EvalOptions.defaults());
 * }
 * }</pre>
 *
 * <p><b>Installing:</b> a policy is installed under a name as a {@link Recipe}, which the pool runs in
 * one instance first (its failure is the caller's, and changes nothing), then in the others one at a
 * time while the rest serve. Meanwhile a call may see the old policy or the new one, never a
 * half-installed one.
 *
 * <p><b>Supervision:</b> a call that stops its instance (a trap, a hard deadline, fuel, memory)
 * throws that {@link StoppedException} at once. A background thread ({@code svc-pool-rebuild-N})
 * then builds a fresh instance and runs every installed recipe in it again, including installs and
 * removals made meanwhile, while the pool serves with one instance fewer; a fresh instance that
 * fails is retried after a growing pause. {@link #stats()} counts the replaced instances.
 *
 * <p><b>Calls that must not block</b>, such as those of an event loop, go to {@link #async}: the pool
 * runs them on its own threads, in two {@link Lane}s, each in the order they came, so evaluations
 * never wait behind slow work and slow work holds at most {@link PoolOptions#operationInstances()}
 * instances. A call that waited in its line longer than the acquire timeout fails with a
 * {@link BusyException} without running, as one that waits that long for an instance does. Such a
 * caller may first try {@link #tryEvaluateJson}, which evaluates on its own thread when an instance is
 * idle and the evaluation is quick, and else answers at once that it didn't.
 *
 * <p><b>Lifecycle:</b> the caller owns the module and closes it after the pool. {@link #close()}
 * ends the pool's threads and frees its instances; a pool left open doesn't keep the JVM alive.
 *
 * <p><b>Thread safety:</b> thread-safe. Share one pool between all threads that use it.
 */
public final class Pool implements AutoCloseable {

  /**
   * How long {@link #tryEvaluateJson} answers empty for a policy after one of its evaluations
   * overran the budget.
   */
  public static final Duration OVERRUN_PAUSE = Duration.ofSeconds(10);

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final boolean PROCESSOR_TIME = THREADS.isCurrentThreadCpuTimeSupported();

  private final PoolOptions options;
  private final PoolListener listener;
  private final Recipes recipes = new Recipes();
  private final Slots slots;
  private final Rebuilder rebuilder;
  // Installs and removals one at a time, each with its roll-out.
  private final ReentrantLock installs = new ReentrantLock();
  private final PoolThreads executorThreads = new PoolThreads("svc-pool-exec-");
  private final Map<Lane, Line> lines = new EnumMap<>(Lane.class);
  private final AtomicBoolean closed = new AtomicBoolean();
  // Policies whose evaluation overran a budget of tryEvaluateJson, to when calls on them may try again.
  private final Map<String, Long> overran = new ConcurrentHashMap<>();
  // Policies whose last evaluation there overran, maybe only because its thread was paused: the next
  // is measured in processor time (a system call each, which the usual evaluation doesn't pay).
  private final Set<String> suspects = ConcurrentHashMap.newKeySet();
  // The slot each thread calling tryEvaluateJson had last, which it asks for again.
  private final ThreadLocal<int[]> lastSlot = ThreadLocal.withInitial(() -> new int[] {-1});

  /**
   * One lane's threads, and its async calls submitted and not yet ended: more than there are threads
   * means the newest waits in line.
   */
  private record Line(ExecutorService executor, int threads, AtomicInteger calls) {}

  private Pool(EngineModule module, PoolOptions options, List<Slot> all) {
    this.options = options;
    this.listener = new GuardedListener(options.listener());
    this.slots = new Slots(all);
    this.rebuilder = new Rebuilder(module, options.limits(), options.isolation(), recipes, slots, listener);
    lines.put(Lane.EVALUATIONS, line(options.size()));
    lines.put(Lane.OPERATIONS, line(options.operationInstances()));
  }

  private Line line(int threads) {
    return new Line(Executors.newFixedThreadPool(threads, executorThreads), threads, new AtomicInteger());
  }

  /**
   * A pool of {@code size} instances with the default {@link PoolOptions} otherwise.
   *
   * @param module what the instances start from; the caller closes it after the pool
   * @param size how many instances; at least 1
   * @return the pool, with every instance started; the caller closes it
   * @throws IllegalArgumentException if {@code size} is below 1
   * @throws SvcException if an instance can't start (see {@link Engine#create(EngineModule,
   *     dev.svc.engine.Limits)})
   */
  public static Pool create(EngineModule module, int size) {
    return create(module, PoolOptions.builder().size(size).build());
  }

  /**
   * A pool set up by {@code options}. Starts every instance before returning.
   *
   * @param module what the instances start from; the caller closes it after the pool
   * @param options size, instance limits, acquire timeout, listener
   * @return the pool; the caller closes it
   * @throws SvcException if an instance can't start (see {@link Engine#create(EngineModule,
   *     dev.svc.engine.Limits)})
   * @throws IllegalStateException if {@code module} is closed
   */
  public static Pool create(EngineModule module, PoolOptions options) {
    Objects.requireNonNull(module, "module");
    Objects.requireNonNull(options, "options");
    List<Slot> all = new ArrayList<>(options.size());
    try {
      for (int id = 0; id < options.size(); id++) {
        all.add(new Slot(id, Engine.create(module, options.limits(), options.isolation())));
      }
    } catch (RuntimeException | Error e) {
      all.forEach(Slot::retire);
      throw e;
    }
    Pool pool = new Pool(module, options, all);
    pool.listener.attached(pool::stats);
    return pool;
  }

  /**
   * Installs a policy under {@code name} in every instance, replacing the one installed under that
   * name before. Runs {@code recipe} in one instance first: if it fails there, the pool is unchanged
   * and the failure is the caller's. Then runs it in each other instance, one at a time, waiting for
   * each to be free while the others serve; an instance that fails it there (or is being rebuilt)
   * tries again before its next call. Every instance built later runs it too. Installs and removals
   * happen one at a time.
   *
   * @param name the name calls use, such as the policy's own name
   * @param recipe compiles the policy in a given instance, the same way every time
   * @return the diagnostics of the policy compiled in the first instance: problems in files it
   *     doesn't use
   * @throws EngineException if the recipe's compile was refused, such as a policy that doesn't check
   * @throws StoppedException if the instance stopped while compiling (it is replaced)
   * @throws IllegalStateException if the pool is closed
   * @throws CancellationException if the thread is interrupted while waiting for an instance
   * @throws RuntimeException whatever else the recipe throws; the instance it ran in is replaced,
   *     since its state is unknown
   */
  public List<Diagnostic> install(String name, Recipe recipe) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(recipe, "recipe");
    installs.lock();
    try {
      Slot first = slots.take(Optional.empty());
      Policy policy =
          leased(first, slot -> {
            catchUp(slot);
            Policy built = slot.build(recipe);
            long before = recipes.generation();
            Recipes.Installed installed = recipes.put(name, recipe);
            forgive(name);
            slot.adopt(name, installed.id(), built, before, recipes.generation());
            return built;
          });
      listener.installed(name);
      rollOut(first.id());
      return policy.diagnostics();
    } finally {
      installs.unlock();
    }
  }

  /**
   * Installs the policy that {@code files} compile to under {@code name}: {@link #install} with a
   * recipe calling {@link Engine#compile}.
   *
   * @param name the name calls use
   * @param files the kind documents, policies and modules
   * @param options which policy is the root, trusted files, required policies
   * @return the diagnostics of the compiled policy: problems in files it doesn't use
   * @throws EngineException if nothing was compiled: errors in the root or what it uses (as
   *     diagnostics), no root or several, a requirement it breaks
   * @throws StoppedException if the instance stopped while compiling (it is replaced)
   * @throws IllegalStateException if the pool is closed
   * @throws CancellationException if the thread is interrupted while waiting for an instance
   */
  public List<Diagnostic> compile(String name, List<SourceFile> files, CompileOptions options) {
    List<SourceFile> copied = List.copyOf(Objects.requireNonNull(files, "files"));
    Objects.requireNonNull(options, "options");
    return install(name, engine -> engine.compile(copied, options));
  }

  /**
   * Removes the policy installed under {@code name} from every instance, one at a time as each is
   * free.
   *
   * @param name the name it is installed under
   * @return whether a policy was installed under that name
   * @throws IllegalStateException if the pool is closed
   * @throws CancellationException if the thread is interrupted while waiting for an instance
   */
  public boolean remove(String name) {
    Objects.requireNonNull(name, "name");
    installs.lock();
    try {
      if (slots.isClosed()) {
        throw Slots.closedError();
      }
      if (!recipes.remove(name)) {
        return false;
      }
      forgive(name);
      listener.removed(name);
      rollOut(-1);
      return true;
    } finally {
      installs.unlock();
    }
  }

  /**
   * The names policies are installed under.
   *
   * @return the names, sorted, unmodifiable
   */
  public List<String> names() {
    return recipes.names();
  }

  /**
   * Evaluates one input with the policy installed under {@code name}, with default
   * {@link EvalOptions}; see {@link #evaluate(String, Object, EvalOptions)}.
   *
   * @param name the name the policy is installed under
   * @param input one key per input the kind declares
   * @return the eval record
   * @throws NoPolicyException if nothing is installed under {@code name}
   * @throws BusyException if no instance was free within the acquire timeout
   * @throws EngineException if the input doesn't fit the kind
   * @throws StoppedException if the evaluation stopped its instance (it is replaced)
   * @throws IllegalStateException if the pool is closed
   * @throws CancellationException if the thread is interrupted while waiting for an instance
   */
  public EvalResult evaluate(String name, Object input) {
    return evaluate(name, input, EvalOptions.defaults());
  }

  /**
   * Evaluates one input with the policy installed under {@code name}, on a free instance, waiting up
   * to the acquire timeout for one.
   *
   * @param name the name the policy is installed under
   * @param input one key per input the kind declares
   * @param options the evaluation's timeout and fuel
   * @return the eval record; a failed evaluation is a result with {@link EvalResult#error()} set
   * @throws NoPolicyException if nothing is installed under {@code name}
   * @throws BusyException if no instance was free within the acquire timeout
   * @throws EngineException if the input doesn't fit the kind, or the recipe of {@code name} failed
   *     in this instance (its error)
   * @throws StoppedException if the evaluation stopped its instance: a
   *     {@link dev.svc.engine.TimeoutException} past its hard deadline, an
   *     {@link dev.svc.engine.OutOfFuelException}, or a trap or memory exhaustion. The instance is
   *     replaced in the background; the next call works
   * @throws IllegalStateException if the pool is closed
   * @throws CancellationException if the thread is interrupted while waiting for an instance
   */
  public EvalResult evaluate(String name, Object input, EvalOptions options) {
    Objects.requireNonNull(options, "options");
    return evaluated(name, policy -> policy.evalWith(input, options), Decisions::of);
  }

  /**
   * {@link #evaluate(String, Object, EvalOptions)}, answering the eval record exactly as the engine
   * wrote it ({@link Policy#evalJson}), for a host that passes it on as JSON.
   *
   * @param name the name the policy is installed under
   * @param input one key per input the kind declares
   * @param options the evaluation's timeout and fuel
   * @return the eval record's compact UTF-8 JSON
   * @throws NoPolicyException if nothing is installed under {@code name}
   * @throws BusyException if no instance was free within the acquire timeout
   * @throws EngineException if the input doesn't fit the kind, or the recipe of {@code name} failed
   *     in this instance (its error)
   * @throws StoppedException if the evaluation stopped its instance (it is replaced)
   * @throws IllegalStateException if the pool is closed
   * @throws CancellationException if the thread is interrupted while waiting for an instance
   */
  public byte[] evaluateJson(String name, Object input, EvalOptions options) {
    Objects.requireNonNull(options, "options");
    return evaluated(name, policy -> policy.evalJson(input, options), Decisions::ofRecord);
  }

  /**
   * {@link #evaluateJson}, at once on the calling thread, or not at all: for a caller that must never
   * wait, such as an event loop, and may run short work itself. Runs only on an instance that is idle
   * this moment with the policy in it (no instance is waited for, and none compiles anything), and
   * only for as long as {@code budget}: the evaluation gets at most {@code budget} as its timeout. A
   * thread that calls again gets the instance it had last when that one is idle, so the instance's
   * memory stays in its processor's cache.
   *
   * <p>An evaluation that needed more than {@code budget} answers nothing and reports nothing: the
   * caller evaluates again the usual way, such as with {@link #async(Lane, Function)}. The next one of
   * that policy here is measured in its thread's processor time: if it too needs more than the budget
   * and had half of it or more of processor time, calls on that policy answer empty for
   * {@link #OVERRUN_PAUSE} (or until it is installed again or removed). So a slow policy costs the
   * calling threads about two budgets per pause, and one that ran out of time only because the
   * operating system ran other threads meanwhile, as it does on a busy machine, pauses nothing; the
   * evaluations that fit pay for no measurement.
   *
   * <p>The engine checks the timeout between the steps of an evaluation (module ABI §8), so the
   * budget holds within a step's time; but a single long step, such as decoding a large input, runs
   * to its end or to the hard deadline, the timeout plus the grace. That grace stays the options' or
   * the instance's: a shorter one would stop instances whose thread the operating system merely
   * paused, and each costs a rebuild. So give it small inputs only.
   *
   * <p>Evaluating again runs the policy again: use it for policies whose host functions, if any, may
   * be called twice and never block. A pool of engine host processes ({@link Isolation#PROCESS})
   * always answers empty: each call there waits for another process to answer, which blocks the
   * calling thread for the evaluation and both processes' wake-ups, no less than handing the call to
   * a pool thread costs, and for up to the hard deadline if the host hangs.
   *
   * @param name the name the policy is installed under
   * @param input one key per input the kind declares
   * @param options the evaluation's timeout, fuel and trace
   * @param budget the most time the calling thread may spend; positive
   * @return the eval record's compact UTF-8 JSON; empty when no instance was idle, the policy needed
   *     more than {@code budget} (now or within the last {@link #OVERRUN_PAUSE}), an instance would
   *     have to catch up with installs first, or the instances run out of process
   * @throws NoPolicyException if nothing is installed under {@code name}
   * @throws EngineException if the input doesn't fit the kind, or the recipe of {@code name} failed
   *     in this instance (its error)
   * @throws StoppedException if the evaluation stopped its instance, other than past a hard deadline
   *     the budget brought forward (it is replaced)
   * @throws IllegalStateException if the pool is closed
   * @throws IllegalArgumentException if {@code budget} isn't positive
   */
  public Optional<byte[]> tryEvaluateJson(String name, Object input, EvalOptions options, Duration budget) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(options, "options");
    if (budget.isNegative() || budget.isZero()) {
      throw new IllegalArgumentException("budget must be positive, got " + budget);
    }
    if (this.options.isolation() == Isolation.PROCESS || paused(name)) {
      return Optional.empty();
    }
    int[] last = lastSlot.get();
    Optional<Slot> idle = reporting(name, () -> {
      if (!recipes.contains(name)) {
        throw new NoPolicyException(name);
      }
      return slots.takeIfIdle(last[0]);
    });
    if (idle.isEmpty()) {
      return Optional.empty();
    }
    last[0] = idle.get().id();
    listener.waited(Duration.ZERO);
    boolean cutShort = options.timeout().map(timeout -> timeout.compareTo(budget) > 0).orElse(true);
    EvalOptions within = cutShort ? options.withTimeout(budget) : options;
    return leased(idle.get(), slot -> reporting(name, () ->
        // An instance that would have to compile a policy first leaves it to the usual way.
        !slot.isCurrent(recipes.snapshot().generation()) && !slot.holds(name)
            ? Optional.empty()
            : evaluateWithin(slot.policy(name), name, input, within, cutShort ? Optional.of(budget) : Optional.empty())));
  }

  // One evaluation of tryEvaluateJson; `budget` when it cut the caller's timeout short, for which
  // running out of time answers nothing rather than a canceled record.
  private Optional<byte[]> evaluateWithin(Policy policy, String name, Object input, EvalOptions within,
      Optional<Duration> budget) {
    boolean measured = PROCESSOR_TIME && suspects.contains(name);
    long processorStart = measured ? THREADS.getCurrentThreadCpuTime() : 0;
    long start = System.nanoTime();
    byte[] record;
    try {
      record = policy.evalJson(input, within);
    } catch (TimeoutException e) {
      if (budget.isPresent()) {
        return overrun(name, measured, processorStart, budget.get()); // the usual way's hard deadline is later
      }
      throw e;
    }
    Duration took = since(start);
    String decision = Decisions.ofRecord(record);
    if (budget.isPresent() && decision.equals(Decisions.CANCELED)) {
      return overrun(name, measured, processorStart, budget.get());
    }
    if (measured) {
      suspects.remove(name);
    }
    listener.evaluated(name, decision, took);
    return Optional.of(record);
  }

  private boolean paused(String name) {
    Long until = overran.get(name);
    return until != null && until - System.nanoTime() > 0;
  }

  // The policy `name` needed more than a budget: it is paused for the calling threads if this
  // evaluation was measured and had the processor half that long, or the JVM can't measure; else the
  // next one is measured.
  private Optional<byte[]> overrun(String name, boolean measured, long processorStart, Duration budget) {
    if (!PROCESSOR_TIME || measured && THREADS.getCurrentThreadCpuTime() - processorStart >= budget.toNanos() / 2) {
      suspects.remove(name);
      overran.put(name, System.nanoTime() + OVERRUN_PAUSE.toNanos());
    } else {
      suspects.add(name);
    }
    return Optional.empty();
  }

  // A policy installed again or removed starts afresh on the calling threads.
  private void forgive(String name) {
    overran.remove(name);
    suspects.remove(name);
  }

  // One evaluation, reported to the listener with what it decided and the time it ran when it returned.
  private <T> T evaluated(String name, Function<Policy, T> evaluation, Function<T, String> decision) {
    return withPolicy(
        name,
        policy -> {
          long start = System.nanoTime();
          T result = evaluation.apply(policy);
          Duration took = since(start);
          listener.evaluated(name, decision.apply(result), took);
          return result;
        });
  }

  /**
   * The explanation of the policy installed under {@code name}, computed when it was compiled.
   *
   * @param name the name the policy is installed under
   * @return its explanation
   * @throws NoPolicyException if nothing is installed under {@code name}
   * @throws BusyException if no instance was free within the acquire timeout
   * @throws IllegalStateException if the pool is closed
   */
  public Explanation explain(String name) {
    return withPolicy(name, Policy::explain);
  }

  /**
   * Runs {@code fn} on a free instance that no other call uses until {@code fn} returns, waiting up to
   * the acquire timeout for one: for the engine's operations that need no installed policy, such as
   * {@link Engine#check}, {@link Engine#format}, {@link Engine#explain} and {@link Engine#test}.
   *
   * <p>{@code fn} must not keep or close the engine, keep a policy it compiles there open after it
   * returns, or install into or remove from this pool. An exception from {@code fn} that isn't an
   * engine error ({@link SvcException}) leaves the instance in an unknown state, so it is replaced
   * like a stopped one.
   *
   * @param <T> what {@code fn} returns
   * @param fn what to do with the instance
   * @return what {@code fn} returned
   * @throws BusyException if no instance was free within the acquire timeout
   * @throws IllegalStateException if the pool is closed
   * @throws CancellationException if the thread is interrupted while waiting for an instance
   */
  public <T> T withEngine(Function<Engine, T> fn) {
    Objects.requireNonNull(fn, "fn");
    return leased(lease(), slot -> fn.apply(slot.engine()));
  }

  /**
   * Runs {@code fn} with the policy installed under {@code name}, on a free instance that no other
   * call uses until {@code fn} returns, waiting up to the acquire timeout for one. Use it for what
   * {@link #evaluate} doesn't cover, such as several evaluations on one instance.
   *
   * <p>{@code fn} must not keep the policy, close it, or install into or remove from this pool (the
   * instance it holds may be the one an install waits for). An exception from {@code fn} that isn't
   * an engine error ({@link SvcException}) leaves the instance in an unknown state, so it is replaced
   * like a stopped one.
   *
   * @param <T> what {@code fn} returns
   * @param name the name the policy is installed under
   * @param fn what to do with the policy
   * @return what {@code fn} returned
   * @throws NoPolicyException if nothing is installed under {@code name}
   * @throws BusyException if no instance was free within the acquire timeout
   * @throws EngineException if the recipe of {@code name} failed in this instance (its error)
   * @throws IllegalStateException if the pool is closed
   * @throws CancellationException if the thread is interrupted while waiting for an instance
   */
  public <T> T withPolicy(String name, Function<Policy, T> fn) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(fn, "fn");
    Slot slot = reporting(name, () -> {
      // Unknown now is unknown: no instance needs to be taken from other callers to say so.
      if (!recipes.contains(name)) {
        throw new NoPolicyException(name);
      }
      return lease();
    });
    // The failure is reported inside the lease, so it precedes the rebuild the lease may start.
    return leased(slot, s -> reporting(name, () -> {
      catchUpFor(s, name);
      return fn.apply(s.policy(name));
    }));
  }

  // Runs `work`, reporting what it throws as a failure of `name` to the listener.
  private <T> T reporting(String name, Supplier<T> work) {
    try {
      return work.get();
    } catch (RuntimeException | Error e) {
      listener.failed(name, FailureKind.of(e));
      throw e;
    }
  }

  /**
   * {@link #async(Lane, Function)} in the lane of {@link Lane#OPERATIONS}, for calls that may take long.
   *
   * @param <T> what {@code calls} returns
   * @param calls what to do with the pool
   * @return completes with what {@code calls} returned, or exceptionally with what it threw, a
   *     {@link BusyException} for a call that waited too long, or an {@link IllegalStateException} if
   *     the pool is closed
   */
  public <T> CompletableFuture<T> async(Function<Pool, T> calls) {
    return async(Lane.OPERATIONS, calls);
  }

  /**
   * Runs {@code calls} with this pool on one of the pool's own threads of {@code lane}
   * ({@code svc-pool-exec-N}, with an 8 MiB stack); the calling thread doesn't wait. For a caller that
   * must not block, such as an event loop: it gets the result as a future.
   *
   * <p>Calls wait for a thread of their lane in one line, first come, first served. A call that found
   * every thread taken and waited in line longer than the acquire timeout fails with a
   * {@link BusyException} without running: as long as the wait for an instance may last, since each
   * thread serves one instance at a time. A call that found a thread free runs however long that
   * thread took to start it. The listener hears of each wait ({@link PoolListener#queued}).
   *
   * @param <T> what {@code calls} returns
   * @param lane {@link Lane#EVALUATIONS} for calls that take milliseconds, {@link Lane#OPERATIONS}
   *     for the rest
   * @param calls what to do with the pool, such as {@code pool -> pool.evaluateJson(name, input,
   *     options)}; the same rules hold as on any other thread
   * @return completes with what {@code calls} returned, or exceptionally with what it threw, a
   *     {@link BusyException} for a call that waited too long, or an {@link IllegalStateException} if
   *     the pool is closed
   */
  public <T> CompletableFuture<T> async(Lane lane, Function<Pool, T> calls) {
    Objects.requireNonNull(lane, "lane");
    Objects.requireNonNull(calls, "calls");
    Line line = lines.get(lane);
    long submitted = System.nanoTime();
    boolean waitsInLine = line.calls().incrementAndGet() > line.threads();
    try {
      return CompletableFuture.supplyAsync(() -> {
        try {
          startAfterLine(lane, submitted, waitsInLine);
          return calls.apply(this);
        } finally {
          line.calls().decrementAndGet();
        }
      }, line.executor());
    } catch (RejectedExecutionException e) {
      line.calls().decrementAndGet();
      return CompletableFuture.failedFuture(Slots.closedError());
    }
  }

  // Reports the wait for a thread, and refuses a call that waited in line past the acquire timeout.
  private void startAfterLine(Lane lane, long submitted, boolean waitedInLine) {
    Duration waited = since(submitted);
    boolean busy = waitedInLine && options.acquireTimeout().map(timeout -> waited.compareTo(timeout) > 0).orElse(false);
    listener.queued(lane, waited, busy);
    if (busy) {
      throw new BusyException(options.acquireTimeout().orElseThrow());
    }
  }

  /**
   * {@link #evaluate(String, Object, EvalOptions)} on one of the pool's own threads, as
   * {@link #async} runs it; the calling thread doesn't wait.
   *
   * @param name the name the policy is installed under
   * @param input one key per input the kind declares
   * @param options the evaluation's timeout and fuel
   * @return completes with the eval record, or exceptionally with what {@code evaluate} throws
   *     (an {@link IllegalStateException} if the pool is closed)
   */
  public CompletableFuture<EvalResult> evaluateAsync(String name, Object input, EvalOptions options) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(options, "options");
    return async(Lane.EVALUATIONS, pool -> pool.evaluate(name, input, options));
  }

  /**
   * {@link #compile} on one of the pool's own threads, as {@link #async} runs it; the calling thread
   * doesn't wait.
   *
   * @param name the name calls use
   * @param files the kind documents, policies and modules
   * @param options which policy is the root, trusted files, required policies
   * @return completes with the compiled policy's diagnostics, or exceptionally with what
   *     {@code compile} throws (an {@link IllegalStateException} if the pool is closed)
   */
  public CompletableFuture<List<Diagnostic>> compileAsync(
      String name, List<SourceFile> files, CompileOptions options) {
    Objects.requireNonNull(name, "name");
    List<SourceFile> copied = List.copyOf(Objects.requireNonNull(files, "files"));
    Objects.requireNonNull(options, "options");
    return async(pool -> pool.compile(name, copied, options));
  }

  /**
   * The pool's state now.
   *
   * @return sizes and counters; after {@link #close()}, every instance counts as busy
   */
  public PoolStats stats() {
    return slots.stats(recipes.size());
  }

  /**
   * The policies that rebuilds left out because they stopped three fresh instances in a row. An
   * instance rebuilt without one answers calls on its name with that failure. Installing the name
   * again or removing it takes it off this list.
   *
   * @return policy name to the text of the last failure, sorted by name, unmodifiable
   */
  public Map<String, String> rebuildFailures() {
    return recipes.skipped();
  }

  /**
   * Closes the pool: calls waiting for an instance fail, later calls throw
   * {@link IllegalStateException}, rebuilds under way stop, and the instances are freed (each busy
   * one when its call ends). Waits until the pool's threads have ended, which includes the async
   * calls already submitted. Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    slots.close().forEach(Slot::retire);
    lines.values().forEach(line -> line.executor().shutdown());
    rebuilder.close();
    executorThreads.awaitEnd();
    listener.closed();
  }

  /**
   * A leased slot's work, after which the slot goes back into service, or to a rebuild if its
   * instance stopped or the work failed outside the engine, leaving the instance in an unknown state.
   */
  private <T> T leased(Slot slot, Function<Slot, T> work) {
    boolean broken = true;
    try {
      T result = work.apply(slot);
      broken = false;
      return result;
    } catch (SvcException e) {
      broken = false;
      throw e;
    } finally {
      slot.memoryChange().ifPresent(bytes -> listener.memory(slot.id(), bytes));
      if (broken || slot.stopped()) {
        rebuilder.rebuild(slot);
      } else {
        slots.giveBack(slot);
      }
    }
  }

  private Slot lease() {
    long start = System.nanoTime();
    try {
      return slots.take(options.acquireTimeout());
    } finally {
      listener.waited(since(start));
    }
  }

  // The fast path is one volatile read: nothing was installed or removed since the slot last synced.
  private void catchUp(Slot slot) {
    Recipes.Snapshot now = recipes.snapshot();
    if (!slot.isCurrent(now.generation())) {
      slot.sync(now, Map.of());
    }
  }

  // A call on one policy catches up only when the slot lacks it: an older version of it still answers
  // (the roll-out brings the new one), so an evaluation never compiles a policy someone else installs.
  private void catchUpFor(Slot slot, String name) {
    Recipes.Snapshot now = recipes.snapshot();
    if (!slot.isCurrent(now.generation()) && !slot.holds(name)) {
      slot.sync(now, Map.of());
    }
  }

  // Brings every slot but skip to the current recipes, one at a time as each is free.
  private void rollOut(int skip) {
    for (int id = 0; id < options.size(); id++) {
      if (id != skip) {
        slots.takeWhenIdle(id).ifPresent(slot -> leased(slot, s -> {
          catchUp(s);
          return null;
        }));
      }
    }
  }

  private static Duration since(long start) {
    return Duration.ofNanos(System.nanoTime() - start);
  }
}
