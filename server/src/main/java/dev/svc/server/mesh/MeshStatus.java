package dev.svc.server.mesh;

/**
 * Whether the mesh node can serve callers, and why (not), as readiness reports it.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param running true when callers can reach the node
 * @param reason the state in words, such as {@code mesh node is in Running state} or
 *     {@code mesh node is in NeedsLogin state}
 */
public record MeshStatus(boolean running, String reason) {}
