package dev.svc.server.health;

/**
 * Whether the server can take API requests, and why (not): the answer of {@code /ready}.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param ready true when every check passes
 * @param reason the mesh node's state when ready, else the first check that fails, such as
 *     {@code policy engine not started}
 */
public record Readiness(boolean ready, String reason) {}
