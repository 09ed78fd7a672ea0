package dev.svc.server;

import dev.svc.server.config.ConfigKey;
import java.util.Map;

/**
 * {@link PolicyApiTest} with evaluations on the event loops ({@code engine.loopEvalBudget}): every
 * answer, error, meter and timeout the same as on the pool's threads. The budget is the largest, so
 * a test's evaluation never gives way to the lane because the machine paused its thread.
 */
class PolicyApiOnLoopTest extends PolicyApiTest {

  @Override
  Map<ConfigKey, String> engineSettings() {
    return Map.of(ConfigKey.ENGINE_LOOP_EVAL_BUDGET, "100ms");
  }

  @Override
  boolean evaluatesOnLoops() {
    return true;
  }
}
