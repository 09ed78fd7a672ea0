package dev.svc.server;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * Runs a test class only where a Docker engine answers; elsewhere skips it and prints why, so a skipped
 * integration test is never silent.
 */
final class DockerGate implements ExecutionCondition {

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    if (DockerClientFactory.instance().isDockerAvailable()) {
      return ConditionEvaluationResult.enabled("a Docker engine answers");
    }
    String reason = "SKIPPED " + context.getDisplayName() + ": no Docker engine reachable (a docker command may"
        + " exist, but no daemon answers), so no k3s cluster can start";
    System.out.println(reason);
    return ConditionEvaluationResult.disabled(reason);
  }
}
