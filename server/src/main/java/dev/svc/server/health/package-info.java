/**
 * The health and metrics listener ({@link dev.svc.server.health.HealthVerticle}): liveness,
 * {@link dev.svc.server.health.Readiness}, and Prometheus metrics.
 */
package dev.svc.server.health;
