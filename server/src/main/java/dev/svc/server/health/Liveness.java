package dev.svc.server.health;

/**
 * Whether the process still does its job, and why not: the answer of {@code /healthz}. A part that
 * has failed for good (the operator's controller that can't start, say) makes it 503, so the kubelet
 * restarts the pod instead of leaving a server up that never reconciles (access-server spec §9).
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param alive false once a part has failed fatally
 * @param reason empty while alive; else which part failed and why
 */
public record Liveness(boolean alive, String reason) {

  /** Every part works, or is still on its way. */
  public static final Liveness ALIVE = new Liveness(true, "");
}
