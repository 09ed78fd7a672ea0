/**
 * OpenTelemetry export over OTLP gRPC when {@code otel.endpoint} is set
 * ({@link dev.svc.server.telemetry.Telemetry}).
 */
package dev.svc.server.telemetry;
