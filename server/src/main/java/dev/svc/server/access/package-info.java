/**
 * The sign-in API of access-server spec §4 under {@code /api/v1alpha1}:
 * {@link dev.svc.server.access.AccessRoutes} mounts it, {@code Signins} does each endpoint's work on the
 * {@code SvcSignin} objects, {@link dev.svc.server.access.Kubeconfig} is an issued kubeconfig, and
 * {@link dev.svc.server.access.AccessError} with {@link dev.svc.server.access.ErrorBody} is how it fails.
 */
package dev.svc.server.access;
