package dev.svc.server.operator;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * How replicas elect the one that reconciles: the Lease {@value #LEASE_NAME} in the pod's namespace
 * (access-server spec §1.2), held by {@code identity}.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param namespace where the Lease lives: the pod's namespace
 * @param identity this replica's name in the Lease
 * @param leaseDuration how long a Lease not renewed keeps others waiting
 * @param renewDeadline how long the leader tries to renew before it gives up leading
 * @param retryPeriod how often candidates try to take the Lease
 */
public record LeaseSettings(String namespace, String identity, Duration leaseDuration, Duration renewDeadline,
    Duration retryPeriod) {

  /** The Lease's name (spec §0). */
  public static final String LEASE_NAME = "controller.access.svc.dev";

  /**
   * The Lease in the pod's namespace ({@code POD_NAMESPACE}, set from the downward API by
   * {@code conf/kubernetes/deployment.yaml}; else {@code fallbackNamespace}), held under the pod's name
   * ({@code HOSTNAME}) and a random suffix, with client-go's usual periods: 15 s lease, 10 s renewal
   * deadline, 2 s retries.
   *
   * @param fallbackNamespace {@code operator.namespace}
   * @return the settings
   */
  public static LeaseSettings fromEnvironment(String fallbackNamespace) {
    String namespace = Optional.ofNullable(System.getenv("POD_NAMESPACE")).filter(s -> !s.isBlank())
        .orElse(fallbackNamespace);
    String host = Optional.ofNullable(System.getenv("HOSTNAME")).filter(s -> !s.isBlank()).orElse("svc");
    return new LeaseSettings(namespace, host + "-" + UUID.randomUUID(), Duration.ofSeconds(15),
        Duration.ofSeconds(10), Duration.ofSeconds(2));
  }
}
