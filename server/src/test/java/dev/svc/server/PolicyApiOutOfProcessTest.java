package dev.svc.server;

import dev.svc.server.config.ConfigKey;
import java.util.Map;

/**
 * {@link PolicyApiTest} with each engine instance in a host process of its own ({@code
 * engine.isolation: process}): every answer, error, meter and timeout the same as in process. A
 * budget on the event loops is set, yet every evaluation goes to the lane: a call to another process
 * would hold the loop while it waits.
 */
class PolicyApiOutOfProcessTest extends PolicyApiTest {

  @Override
  Map<ConfigKey, String> engineSettings() {
    return Map.of(ConfigKey.ENGINE_ISOLATION, "process", ConfigKey.ENGINE_LOOP_EVAL_BUDGET, "100ms");
  }
}
