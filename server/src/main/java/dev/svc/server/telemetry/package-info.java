/**
 * OpenTelemetry export of spans and logs over OTLP (gRPC or HTTP, by {@code otel.endpoint})
 * ({@link dev.svc.server.telemetry.Telemetry}).
 */
package dev.svc.server.telemetry;
