/**
 * The overlay network as the server sees it: {@link dev.svc.server.mesh.Mesh} says where API callers
 * reach the server and who each is ({@link dev.svc.server.mesh.Caller}, with capability grants read as
 * {@link dev.svc.server.mesh.GrantRule}s). {@link dev.svc.server.mesh.DevMesh} is the local
 * development adapter; {@code mesh.tailnet} joins a real tailnet.
 */
package dev.svc.server.mesh;
