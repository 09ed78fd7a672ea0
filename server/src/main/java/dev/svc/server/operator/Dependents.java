package dev.svc.server.operator;

import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;

/**
 * Where the reconciler looks up a sign-in's ServiceAccount and binding before writing: the
 * controller's informer caches, so a reconcile of a healthy session reads nothing from the API. A
 * stale answer costs one idempotent provision, never a wrong write: writes go to the API.
 *
 * <p><b>Thread safety:</b> implementations are thread-safe.
 */
interface Dependents {

  /** The ServiceAccount {@code name} in the operator's namespace, if it exists. */
  Optional<ServiceAccount> serviceAccount(String name);

  /** The ClusterRoleBinding {@code name}, if it exists. */
  Optional<ClusterRoleBinding> binding(String name);

  /** Dependents read from the API on every call. */
  static Dependents live(KubernetesClient client, String namespace) {
    return new Dependents() {
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
