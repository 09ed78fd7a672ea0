/**
 * svc's side of Kubernetes, shared by the sign-in API and the operator.
 *
 * <h2>Where things are</h2>
 *
 * <ul>
 *   <li>{@link dev.svc.server.kube.SvcSignin} with {@link dev.svc.server.kube.SvcSigninSpec} and
 *       {@link dev.svc.server.kube.SvcSigninStatus}: the typed sign-in resource ({@code access.svc.dev/v1alpha1});
 *       its definition and the server's RBAC are in {@code conf/kubernetes/}.
 *   <li>{@link dev.svc.server.kube.SigninName}: the names of a person's objects, sanitized in one place.
 *   <li>{@link dev.svc.server.kube.Rfc3339}: the times objects and answers carry.
 *   <li>{@link dev.svc.server.kube.KubernetesConnection}: the fabric8 client, its worker threads (every
 *       call off the event loop, answered as a Vert.x future) and the start-up check.
 * </ul>
 */
package dev.svc.server.kube;
