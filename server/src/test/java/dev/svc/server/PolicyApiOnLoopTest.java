package dev.svc.server;

/**
 * {@link PolicyApiTest} with evaluations on the event loops ({@code engine.loopEvalBudget}): every
 * answer, error, meter and timeout the same as on the pool's threads. The budget is the largest, so
 * a test's evaluation never gives way to the lane because the machine paused its thread.
 */
class PolicyApiOnLoopTest extends PolicyApiTest {

  @Override
  String loopEvalBudget() {
    return "100ms";
  }
}
