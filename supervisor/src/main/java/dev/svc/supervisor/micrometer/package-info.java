/**
 * Pool metrics in Micrometer: {@link dev.svc.supervisor.micrometer.MicrometerPoolListener}. Using it
 * needs {@code io.micrometer:micrometer-core} on the class path, which the supervisor library
 * declares optional; nothing else in the library loads Micrometer.
 */
package dev.svc.supervisor.micrometer;
