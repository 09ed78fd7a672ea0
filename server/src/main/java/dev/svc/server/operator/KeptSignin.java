package dev.svc.server.operator;

import static dev.svc.server.operator.ProjectedStore.shared;

import dev.svc.server.kube.SvcSignin;
import dev.svc.server.kube.SvcSigninSpec;
import dev.svc.server.kube.SvcSigninStatus;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What the operator's cache keeps of a sign-in ({@link ProjectedStore}): its identity and version, the
 * last-attempted annotation, the spec and the status. Labels, other annotations, managed fields and the
 * informational valid-until annotation are dropped: the reconciler reads none of them.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param uid {@code metadata.uid}
 * @param resourceVersion {@code metadata.resourceVersion}
 * @param deletionTimestamp {@code metadata.deletionTimestamp}, or null
 * @param lastAttempted the {@link SvcSignin#LAST_ATTEMPTED} annotation, or null
 * @param spec the spec, or null
 * @param status the status, or null
 */
record KeptSignin(String uid, String resourceVersion, String deletionTimestamp, String lastAttempted,
    SvcSigninSpec spec, SvcSigninStatus status) {

  /** What is kept of {@code signin}. */
  static KeptSignin of(SvcSignin signin) {
    String lastAttempted = lastAttempted(signin);
    SvcSigninSpec spec = signin.getSpec();
    SvcSigninStatus status = signin.getStatus();
    return new KeptSignin(signin.getMetadata().getUid(), signin.getMetadata().getResourceVersion(),
        signin.getMetadata().getDeletionTimestamp(), lastAttempted,
        spec == null ? null : new SvcSigninSpec(spec.username(), shared(spec.role()), shared(spec.validityPeriod()),
            spec.loginName()),
        // The status's start is the annotation's text once provisioned: one string for both.
        status == null ? null : new SvcSigninStatus(status.provisioned(),
            Objects.equals(status.signedIn(), lastAttempted) ? lastAttempted : status.signedIn(), status.validUntil()));
  }

  /** The {@link SvcSignin#LAST_ATTEMPTED} annotation of {@code signin}, or null. */
  static String lastAttempted(SvcSignin signin) {
    Map<String, String> annotations = signin.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(SvcSignin.LAST_ATTEMPTED);
  }

  /** A sign-in made from what was kept, under the cache key {@code key}. */
  SvcSignin restore(String key) {
    SvcSignin signin = new SvcSignin();
    signin.getMetadata().setName(ProjectedStore.name(key));
    signin.getMetadata().setNamespace(ProjectedStore.namespace(key));
    signin.getMetadata().setUid(uid);
    signin.getMetadata().setResourceVersion(resourceVersion);
    signin.getMetadata().setDeletionTimestamp(deletionTimestamp);
    Map<String, String> annotations = new HashMap<>();
    if (lastAttempted != null) {
      annotations.put(SvcSignin.LAST_ATTEMPTED, lastAttempted);
    }
    signin.getMetadata().setAnnotations(annotations);
    signin.setSpec(spec);
    signin.setStatus(status);
    return signin;
  }
}
