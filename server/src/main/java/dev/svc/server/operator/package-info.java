/**
 * The operator (access-server spec §6): it turns each {@code SvcSignin} into a ServiceAccount and a
 * ClusterRoleBinding to the granted role, ends the session at {@code valid_until}, and leaves nothing
 * behind after sign-out.
 *
 * <h2>Where things are</h2>
 *
 * <ul>
 *   <li>{@code OperatorVerticle}: hosts the operator in the server, behind
 *       leader election on the Lease {@code controller.access.svc.dev}.
 *   <li>{@link dev.svc.server.operator.SigninController}: informers, the keyed work queue with back-off,
 *       worker threads, resync and the orphan sweep.
 *   <li>{@code SigninReconciler}: one reconcile, step by step as §6.2 says; it reads through
 *       {@code Observed} (the caches; the API before deleting).
 *   <li>{@code ProjectedStore} with {@code KeptSignin}, {@code KeptServiceAccount}, {@code KeptBinding}:
 *       what the informer caches keep of each object, a few hundred bytes instead of the whole object.
 *   <li>{@link dev.svc.server.operator.OperatorMetrics}: the operator's meters; the series kept per sign-in
 *       ({@code ReconcileTimer}, {@code SigninCounter}) are compact Prometheus collectors, not a Micrometer
 *       meter per name.
 *   <li>{@link dev.svc.server.operator.Scheduler}: timed work, replaced in tests together with the clock.
 * </ul>
 *
 * <h2>Threads</h2>
 *
 * Informer callbacks (fabric8's threads) only queue names; reconciles run on the controller's own
 * worker threads, never on an event loop, and one name is never reconciled by two workers at once.
 */
package dev.svc.server.operator;
