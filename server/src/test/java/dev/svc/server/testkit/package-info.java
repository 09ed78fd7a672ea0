/**
 * Test doubles of the server's outside world that speak the real protocols:
 * {@link dev.svc.server.testkit.FakeTailscaled} is tailscaled's local API on a unix socket; and
 * {@link dev.svc.server.testkit.LogCapture} reads what the server tells its operator.
 */
package dev.svc.server.testkit;
