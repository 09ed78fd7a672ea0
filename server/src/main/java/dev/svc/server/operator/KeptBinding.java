package dev.svc.server.operator;

import static dev.svc.server.operator.ProjectedStore.shared;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.RoleRefBuilder;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.api.model.rbac.SubjectBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the operator's cache keeps of a ClusterRoleBinding ({@link ProjectedStore}): its version, svc's
 * two labels, the role it binds, how many subjects it has and the subject when there is one. Enough to
 * tell whether it binds what a sign-in needs, and whose it is when it goes; the reconciler never
 * updates a binding (it replaces one), so nothing kept here is written back.
 *
 * <p>Strings that repeat within one binding as svc makes them (the sign-in label is the sign-in's name,
 * the subject is the ServiceAccount of the same name) are kept once.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param resourceVersion {@code metadata.resourceVersion}
 * @param managedBy the {@link SigninReconciler#MANAGED_BY} label, or null
 * @param signin the {@link SigninReconciler#SIGNIN_LABEL} label, or null
 * @param roleApiGroup the role reference's API group, or null
 * @param roleKind the role reference's kind, or null
 * @param role the role reference's name, or null
 * @param subjects how many subjects it has
 * @param subjectKind the kind of its only subject, or null
 * @param subjectName the name of its only subject, or null; the same string as {@code signin} when equal
 * @param subjectNamespace the namespace of its only subject, or null
 */
record KeptBinding(String resourceVersion, String managedBy, String signin, String roleApiGroup, String roleKind,
    String role, int subjects, String subjectKind, String subjectName, String subjectNamespace) {

  /** What is kept of {@code binding}. */
  static KeptBinding of(ClusterRoleBinding binding) {
    Map<String, String> labels = Objects.requireNonNullElse(binding.getMetadata().getLabels(), Map.of());
    String signin = labels.get(SigninReconciler.SIGNIN_LABEL);
    RoleRef role = Objects.requireNonNullElse(binding.getRoleRef(), new RoleRef());
    List<Subject> subjects = Objects.requireNonNullElse(binding.getSubjects(), List.of());
    Subject only = subjects.size() == 1 ? subjects.get(0) : new Subject();
    return new KeptBinding(binding.getMetadata().getResourceVersion(), shared(labels.get(SigninReconciler.MANAGED_BY)),
        signin, shared(role.getApiGroup()), shared(role.getKind()), shared(role.getName()), subjects.size(),
        shared(only.getKind()), Objects.equals(only.getName(), signin) ? signin : only.getName(),
        shared(only.getNamespace()));
  }

  /** A binding made from what was kept, under the cache key {@code key}. */
  ClusterRoleBinding restore(String key) {
    ClusterRoleBinding binding = new ClusterRoleBinding();
    binding.setMetadata(new ObjectMeta());
    binding.getMetadata().setName(key);
    binding.getMetadata().setResourceVersion(resourceVersion);
    binding.getMetadata().setLabels(labels(managedBy, signin));
    binding.setRoleRef(new RoleRefBuilder().withApiGroup(roleApiGroup).withKind(roleKind).withName(role).build());
    List<Subject> all = new ArrayList<>();
    for (int i = 0; i < subjects; i++) {
      // Of several subjects only the count is kept: such a binding isn't one svc makes, whoever they are.
      all.add(subjects == 1
          ? new SubjectBuilder().withKind(subjectKind).withName(subjectName).withNamespace(subjectNamespace).build()
          : new Subject());
    }
    binding.setSubjects(all);
    return binding;
  }

  /** svc's two labels, those present. */
  static Map<String, String> labels(String managedBy, String signin) {
    Map<String, String> labels = new HashMap<>();
    if (managedBy != null) {
      labels.put(SigninReconciler.MANAGED_BY, managedBy);
    }
    if (signin != null) {
      labels.put(SigninReconciler.SIGNIN_LABEL, signin);
    }
    return labels;
  }
}
