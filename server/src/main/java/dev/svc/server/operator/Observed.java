package dev.svc.server.operator;

import dev.svc.server.kube.SvcSignin;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;

/**
 * Where the reconciler reads a sign-in, its ServiceAccount and its binding: the controller's informer
 * caches, so a reconcile asks the API nothing before it writes, and a healthy session's reconcile asks
 * it nothing at all. A cache may lag the API by a few events. Creating writes are safe on a stale read
 * (they are idempotent, and a write based on an old version fails with 409 and is retried); the
 * reconciler takes destructive decisions (clean-up, expiry) only on the API's own answer.
 *
 * <p>Every call answers a fresh object the caller may change: nothing it gets is shared with a cache.
 *
 * <p><b>Thread safety:</b> implementations are thread-safe.
 */
interface Observed {

  /** The sign-in {@code name} in the operator's namespace, if it exists. */
  Optional<SvcSignin> signin(String name);

  /** The ServiceAccount {@code name} in the operator's namespace, if it exists. */
  Optional<ServiceAccount> serviceAccount(String name);

  /** The ClusterRoleBinding {@code name}, if it exists. */
  Optional<ClusterRoleBinding> binding(String name);

  /** Objects read from the API on every call. */
  static Observed live(KubernetesClient client, String namespace) {
    return new Observed() {
      @Override
      public Optional<SvcSignin> signin(String name) {
        return Optional.ofNullable(client.resources(SvcSignin.class).inNamespace(namespace).withName(name).get());
      }

      @Override
      public Optional<ServiceAccount> serviceAccount(String name) {
        return Optional.ofNullable(client.serviceAccounts().inNamespace(namespace).withName(name).get());
      }

      @Override
      public Optional<ClusterRoleBinding> binding(String name) {
        return Optional.ofNullable(client.rbac().clusterRoleBindings().withName(name).get());
      }
    };
  }
}
