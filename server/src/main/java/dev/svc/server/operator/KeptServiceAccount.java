package dev.svc.server.operator;

import static dev.svc.server.operator.ProjectedStore.shared;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the operator's cache keeps of a ServiceAccount ({@link ProjectedStore}): its version, svc's two
 * labels and its controller owner. Enough to tell whether it is the one a sign-in needs, and whose it
 * is when it goes; before changing one, the reconciler reads it whole from the API.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param resourceVersion {@code metadata.resourceVersion}
 * @param managedBy the {@link SigninReconciler#MANAGED_BY} label, or null
 * @param signin the {@link SigninReconciler#SIGNIN_LABEL} label; null when absent or equal to the
 *     account's own name (as the operator makes them), to keep one string instead of two
 * @param signinLabelled whether the {@link SigninReconciler#SIGNIN_LABEL} label is there
 * @param controllerKind the kind of the controller owner reference, or null without one
 * @param controllerUid the UID of the controller owner reference, or null without one
 */
record KeptServiceAccount(String resourceVersion, String managedBy, String signin, boolean signinLabelled,
    String controllerKind, String controllerUid) {

  /** What is kept of {@code account}. */
  static KeptServiceAccount of(ServiceAccount account) {
    Map<String, String> labels = Objects.requireNonNullElse(account.getMetadata().getLabels(), Map.of());
    String signin = labels.get(SigninReconciler.SIGNIN_LABEL);
    OwnerReference controller = Objects.requireNonNullElse(account.getMetadata().getOwnerReferences(),
            List.<OwnerReference>of()).stream()
        .filter(owner -> Boolean.TRUE.equals(owner.getController()))
        .findFirst().orElse(null);
    return new KeptServiceAccount(account.getMetadata().getResourceVersion(),
        shared(labels.get(SigninReconciler.MANAGED_BY)),
        Objects.equals(signin, account.getMetadata().getName()) ? null : signin, signin != null,
        controller == null ? null : shared(controller.getKind()), controller == null ? null : controller.getUid());
  }

  /** A ServiceAccount made from what was kept, under the cache key {@code key}. */
  ServiceAccount restore(String key) {
    ServiceAccount account = new ServiceAccount();
    account.setMetadata(new ObjectMeta());
    String name = ProjectedStore.name(key);
    account.getMetadata().setName(name);
    account.getMetadata().setNamespace(ProjectedStore.namespace(key));
    account.getMetadata().setResourceVersion(resourceVersion);
    account.getMetadata().setLabels(KeptBinding.labels(managedBy, signinLabelled ? Objects.requireNonNullElse(signin,
        name) : null));
    if (controllerUid != null) {
      account.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder()
          .withKind(controllerKind).withUid(controllerUid).withController(true).build()));
    }
    return account;
  }
}
