package dev.svc.server.engine;

import dev.svc.engine.EngineModule;
import dev.svc.engine.EvalOptions;
import dev.svc.engine.Limits;
import dev.svc.engine.SvcException;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.http.ApiError;
import dev.svc.supervisor.Lane;
import dev.svc.supervisor.Pool;
import dev.svc.supervisor.PoolOptions;
import dev.svc.supervisor.micrometer.MicrometerPoolListener;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The server's engines: the supervisor's {@link Pool} of the bundled module, reporting to the
 * server's Micrometer registry ({@link MicrometerPoolListener}). Every operation goes to
 * {@link Pool#async}, so it runs on one of the pool's own threads, off the event loop, in the
 * line of its {@link Lane}: evaluations on threads and instances of their own, so installs, check,
 * format, explain and test never delay them (see {@link Lane} for how the instances are shared). One
 * that waits in its line or for an instance longer than {@code engine.acquireTimeout} fails with a
 * {@link dev.svc.engine.BusyException} (503). Only {@link #tryEvaluateJson} evaluates on the calling
 * thread ({@link Pool#tryEvaluateJson}), when an instance is idle and within a budget; no line admits
 * it, since it never waits.
 *
 * <p>Each line is bounded too: past {@value #EVALUATIONS_WAITING} waiting evaluations per instance,
 * or {@value #OPERATIONS_WAITING} waiting operations per instance they may use, a call is refused at
 * once with 503 and {@code Retry-After}, rather than kept, with its body, until the acquire timeout
 * refuses it anyway.
 *
 * <p>Every instance may grow its memory to {@code engine.maxMemory} at most: an operation that needs
 * more stops its instance (answered 500, the instance rebuilt), instead of taking the memory of the
 * whole machine. Each kind of operation has a hard deadline of its own ({@link #limits}), past which
 * its instance is stopped (504) and rebuilt.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class SupervisedEngines implements EnginePool {

  /** Evaluations that may wait per instance before more are refused. */
  static final int EVALUATIONS_WAITING = 64;
  /** Operations that may wait per instance they may use before more are refused. */
  static final int OPERATIONS_WAITING = 4;

  /**
   * The hard deadline of a compile in each instance: an install's policy is compiled once per instance
   * and then serves for long, so it gets the most time, still half the library's default.
   */
  static final Duration COMPILE_DEADLINE = Duration.ofSeconds(30);
  /**
   * The hard deadline of check, format, explain and test, which only answer a report: half of
   * {@code server.writeTimeout}'s default, past which nobody reads the answer anyway.
   */
  static final Duration REPORT_DEADLINE = Duration.ofSeconds(10);

  private final EngineModule module;
  private final Pool pool;
  private final Map<Lane, Line> lines = new EnumMap<>(Lane.class);

  /** One lane's calls admitted and not yet ended, and how many it admits. */
  private record Line(String calls, AtomicInteger admitted, int limit) {}

  private SupervisedEngines(EngineModule module, Pool pool, PoolOptions options) {
    this.module = module;
    this.pool = pool;
    lines.put(Lane.EVALUATIONS, new Line("evaluations", new AtomicInteger(),
        options.size() * (1 + EVALUATIONS_WAITING)));
    lines.put(Lane.OPERATIONS, new Line("installs, checks, formats, explains and tests", new AtomicInteger(),
        options.operationInstances() * (1 + OPERATIONS_WAITING)));
  }

  /**
   * Compiles (or loads from the cache) the bundled engine module and starts the pool {@code engine}
   * describes. Blocks for as long as that takes: call it off the event loop.
   *
   * @param engine the {@code engine.*} keys
   * @param registry where the pool's meters go
   * @return the engines; the caller closes them
   * @throws SvcException if the module or an instance can't start
   */
  public static SupervisedEngines start(SvcConfig.Engine engine, MeterRegistry registry) {
    EngineModule module = EngineModule.bundled();
    try {
      PoolOptions options = PoolOptions.builder()
          .size(engine.instances())
          .limits(limits(engine))
          .acquireTimeout(engine.acquireTimeout())
          .listener(new MicrometerPoolListener(registry))
          .isolation(engine.isolation())
          .build();
      return new SupervisedEngines(module, Pool.create(module, options), options);
    } catch (RuntimeException | Error e) {
      module.close();
      throw e;
    }
  }

  /**
   * The bounds of the server's instances: memory at most {@code engine.maxMemory}; a compile
   * {@link #COMPILE_DEADLINE}; check, format, explain and test {@link #REPORT_DEADLINE}; an evaluation
   * without a timeout of its own as long as one with the largest it may ask for
   * ({@code engine.maxEvalTimeout} and the grace).
   *
   * @param engine the {@code engine.*} keys
   * @return the limits of every instance
   */
  static Limits limits(SvcConfig.Engine engine) {
    Limits limits = Limits.defaults().withMaxMemory(engine.maxMemory())
        .withOpDeadline("compile", COMPILE_DEADLINE);
    for (String report : List.of("check", "format", "explain", "test")) {
      limits = limits.withOpDeadline(report, REPORT_DEADLINE);
    }
    return limits.withOpDeadline("eval", engine.maxEvalTimeout().plus(limits.grace()));
  }

  @Override
  public <T> CompletionStage<T> submit(Function<Pool, T> operation) {
    return submit(Lane.OPERATIONS, "operation", operation);
  }

  @Override
  public <T> CompletionStage<T> submit(Lane lane, String name, Function<Pool, T> operation) {
    Line line = lines.get(lane);
    if (line.admitted().incrementAndGet() > line.limit()) {
      line.admitted().decrementAndGet();
      return CompletableFuture.failedFuture(new ApiError(503,
          "the engine's line of " + line.calls() + " is full: " + line.limit() + " are admitted at once",
          "try again after the Retry-After seconds, or send fewer requests at a time"));
    }
    return pool.async(lane, operation).whenComplete((result, failure) -> line.admitted().decrementAndGet());
  }

  @Override
  public Optional<byte[]> tryEvaluateJson(String name, Object input, EvalOptions options, Duration budget) {
    return pool.tryEvaluateJson(name, input, options, budget);
  }

  /** Closes the pool, which waits for the calls on its threads, then the module. */
  @Override
  public void close() {
    pool.close();
    module.close();
  }
}
