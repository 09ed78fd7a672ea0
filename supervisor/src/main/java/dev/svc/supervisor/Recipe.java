package dev.svc.supervisor;

import dev.svc.engine.Engine;
import dev.svc.engine.Policy;

/**
 * How to make one installed policy in an engine instance. A {@link Pool} runs it once in each of its
 * instances, and again in every instance it builds to replace a stopped one, so it must give the
 * same policy every time it runs.
 *
 * <pre>{@code
 * pool.install("refunds", engine -> engine.compile(files, CompileOptions.defaults()));
 * }</pre>
 *
 * <p><b>Thread safety:</b> the pool runs a recipe on several threads at once, each with its own
 * instance; a recipe must not keep the engine or share state between runs.
 */
@FunctionalInterface
public interface Recipe {

  /**
   * Compiles the policy in {@code engine}.
   *
   * @param engine the instance to compile it in; it belongs to the pool, so don't close or keep it
   * @return the policy, compiled in {@code engine}
   * @throws dev.svc.engine.EngineException if the policy doesn't compile
   * @throws dev.svc.engine.StoppedException if the instance stopped while compiling
   */
  Policy build(Engine engine);
}
