/**
 * {@code svc serve}: the cluster access server on Vert.x, serving the policy engine over HTTP.
 *
 * <h2>Where things are</h2>
 *
 * <ul>
 *   <li>{@link dev.svc.server.SvcServer}: the server as one object; start it from a configuration,
 *       stop it gracefully.
 *   <li>{@link dev.svc.server.config}: the configuration keys, how flags, environment, config file
 *       and defaults combine, and their validation.
 *   <li>{@link dev.svc.server.mesh}: the overlay network seam (who-is, grants) and its adapters.
 *   <li>{@link dev.svc.server.http}: what every API route shares: auth, JSON bodies, error answers,
 *       timeouts.
 *   <li>{@link dev.svc.server.engine}: the policy engine's operations as routes, and the engine pool
 *       they run on.
 *   <li>{@link dev.svc.server.health}: liveness, readiness and Prometheus metrics.
 *   <li>{@link dev.svc.server.telemetry}: OpenTelemetry export.
 * </ul>
 *
 * <h2>Threads</h2>
 *
 * Event loops never block: engine calls run on the engine pool's own threads and come back to the
 * event loop as futures.
 */
package dev.svc.server;
