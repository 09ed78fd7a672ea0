/**
 * The pool's machinery, not an API: {@link dev.svc.supervisor.internal.Slot} (an instance and its
 * policies), {@link dev.svc.supervisor.internal.Slots} (idle, leased and rebuilding slots),
 * {@link dev.svc.supervisor.internal.Recipes} (installed recipes and their generation),
 * {@link dev.svc.supervisor.internal.Rebuilder} (background rebuilds),
 * {@link dev.svc.supervisor.internal.PoolThreads} and
 * {@link dev.svc.supervisor.internal.GuardedListener}.
 */
package dev.svc.supervisor.internal;
