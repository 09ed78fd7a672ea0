package dev.svc.supervisor;

import dev.svc.engine.EngineModule;
import dev.svc.engine.EvalOptions;
import dev.svc.engine.Isolation;
import dev.svc.engine.Limits;
import dev.svc.engine.MemoryLimitException;
import dev.svc.engine.OutOfFuelException;
import dev.svc.engine.StoppedException;
import dev.svc.engine.TimeoutException;
import java.time.Duration;

/**
 * The ways a test stops an engine instance without host functions, each checked to stop it for real
 * ({@code Engine.stopped()}): the pool to create, and the evaluation that kills the instance it runs
 * on.
 */
enum Kill {
  /** A 1 ms timeout without grace over an input whose decoding has no cooperative deadline check. */
  HARD_DEADLINE(TimeoutException.class) {
    @Override
    PoolOptions.Builder options() {
      return PoolOptions.builder().limits(Limits.defaults().withGrace(Duration.ZERO));
    }

    @Override
    StoppedException poison(Pool pool, String name) {
      return stoppedBy(
          () -> pool.evaluate(name, Fixtures.huge(), EvalOptions.defaults().withTimeout(Duration.ofMillis(1))));
    }
  },
  /** An evaluation with a budget of 100 instructions, on a module with fuel metering. */
  FUEL(OutOfFuelException.class) {
    @Override
    EngineModule module() {
      return Fixtures.fueled();
    }

    @Override
    StoppedException poison(Pool pool, String name) {
      return stoppedBy(() -> pool.evaluate(name, Fixtures.refund(40, "web"), EvalOptions.defaults().withFuel(100)));
    }
  },
  /** An input that needs more memory than the instances' 16 MiB cap. */
  MEMORY(MemoryLimitException.class) {
    @Override
    PoolOptions.Builder options() {
      return PoolOptions.builder().limits(Limits.defaults().withMaxMemory(16L << 20));
    }

    @Override
    StoppedException poison(Pool pool, String name) {
      return stoppedBy(() -> pool.evaluate(name, Fixtures.huge()));
    }
  };

  private final Class<? extends StoppedException> error;

  Kill(Class<? extends StoppedException> error) {
    this.error = error;
  }

  /** The exception the poisoned evaluation throws. */
  Class<? extends StoppedException> error() {
    return error;
  }

  /** The module the pool's instances start from. */
  EngineModule module() {
    return Fixtures.engine();
  }

  /** The pool's options, before the size. */
  PoolOptions.Builder options() {
    return PoolOptions.builder();
  }

  /** Creates a pool of {@code size} instances these kills work on, running where {@code isolation} says. */
  Pool pool(int size, Isolation isolation) {
    return Pool.create(module(), options().size(size).isolation(isolation).build());
  }

  /**
   * Runs an evaluation of {@code name} that stops the instance it runs on.
   *
   * @return what the evaluation threw
   * @throws AssertionError if it didn't stop its instance
   */
  abstract StoppedException poison(Pool pool, String name);

  private static StoppedException stoppedBy(Runnable evaluation) {
    try {
      evaluation.run();
    } catch (StoppedException e) {
      return e;
    }
    throw new AssertionError("the poisoned evaluation succeeded");
  }
}
