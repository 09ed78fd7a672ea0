/**
 * The tailnet mesh: {@link dev.svc.server.mesh.tailnet.TailnetMesh} joins a tailnet through a
 * tailscaled daemon's local API ({@link dev.svc.server.mesh.tailnet.LocalApiClient}), either our own
 * child ({@link dev.svc.server.mesh.tailnet.TailscaledProcess}, mode managed) or a daemon someone
 * else runs (mode external), and keeps the HTTPS certificate of port 443 current
 * ({@link dev.svc.server.mesh.tailnet.CertificateManager}). All wire handling of the daemon's
 * unstable local API stays in this package.
 */
package dev.svc.server.mesh.tailnet;
