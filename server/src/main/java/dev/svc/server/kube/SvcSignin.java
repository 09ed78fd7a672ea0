package dev.svc.server.kube;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One person's sign-in (access-server spec §5.1): the namespaced custom resource {@code SvcSignin} of
 * {@code access.svc.dev/v1alpha1} that the API writes on {@code POST /login} and the operator provisions
 * into a ServiceAccount and a ClusterRoleBinding. {@code conf/kubernetes/crd-svcsignins.yaml} is its
 * definition; a test keeps the two in step.
 *
 * <p>Objects are named by {@link SigninName}; the two annotations are {@link #LAST_ATTEMPTED} and
 * {@link #VALID_UNTIL}, both RFC 3339 times ({@link Rfc3339}).
 *
 * <p><b>Thread safety:</b> a mutable fabric8 model object; don't share one between threads while it
 * changes.
 */
@Group(SvcSignin.GROUP)
@Version(SvcSignin.VERSION)
@Kind(SvcSignin.KIND)
@Plural(SvcSignin.PLURAL)
@Singular(SvcSignin.SINGULAR)
@ShortNames(SvcSignin.SHORT_NAME)
public final class SvcSignin extends CustomResource<SvcSigninSpec, SvcSigninStatus> implements Namespaced {

  private static final long serialVersionUID = 1L;

  /** The API group. */
  public static final String GROUP = "access.svc.dev";
  /** The API version. */
  public static final String VERSION = "v1alpha1";
  /** The kind. */
  public static final String KIND = "SvcSignin";
  /** The plural resource name, as RBAC rules and URLs write it. */
  public static final String PLURAL = "svcsignins";
  /** The singular resource name. */
  public static final String SINGULAR = "svcsignin";
  /** The short name {@code kubectl get signin} takes. */
  public static final String SHORT_NAME = "signin";
  /** The definition's name: {@code <plural>.<group>}. */
  public static final String CRD_NAME = PLURAL + "." + GROUP;
  /** The annotation holding the time of the latest {@code POST /login}: where the validity window starts. */
  public static final String LAST_ATTEMPTED = GROUP + "/last-attempted-sign-in";
  /** The annotation holding last-attempted + period; informational. */
  public static final String VALID_UNTIL = GROUP + "/sign-in-valid-until";

  /** An empty sign-in; fabric8 and Jackson fill it. */
  public SvcSignin() {
    // The model's defaults: no spec, no status, as CustomResource leaves them.
  }

  /**
   * A new sign-in object, not yet stored: {@code spec}, the two annotations for a sign-in at {@code now}
   * valid until {@code until}, and no status.
   *
   * @param name the object's names
   * @param namespace {@code operator.namespace}
   * @param spec what the person asked for
   * @param now the time of the request
   * @param until now + the period
   * @return the object to create
   */
  public static SvcSignin of(SigninName name, String namespace, SvcSigninSpec spec, Instant now, Instant until) {
    SvcSignin signin = new SvcSignin();
    signin.getMetadata().setName(name.signin());
    signin.getMetadata().setNamespace(namespace);
    signin.getMetadata().setAnnotations(annotations(now, until));
    signin.setSpec(spec);
    return signin;
  }

  /**
   * The two annotations of a sign-in at {@code now}, valid until {@code until}.
   *
   * @param now the time of the latest {@code POST /login}
   * @param until now + the period
   * @return {@link #LAST_ATTEMPTED} and {@link #VALID_UNTIL} as RFC 3339 times
   */
  public static Map<String, String> annotations(Instant now, Instant until) {
    return Map.of(LAST_ATTEMPTED, Rfc3339.format(now), VALID_UNTIL, Rfc3339.format(until));
  }

  /**
   * The status, or the not-provisioned status when none is written yet.
   *
   * @return the status
   */
  public SvcSigninStatus statusOrPending() {
    return Optional.ofNullable(getStatus()).orElse(SvcSigninStatus.PENDING);
  }
}
