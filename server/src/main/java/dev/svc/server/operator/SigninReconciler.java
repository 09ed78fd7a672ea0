package dev.svc.server.operator;

import dev.svc.server.config.GoDuration;
import dev.svc.server.kube.Rfc3339;
import dev.svc.server.kube.SigninName;
import dev.svc.server.kube.SvcSignin;
import dev.svc.server.kube.SvcSigninSpec;
import dev.svc.server.kube.SvcSigninStatus;
import dev.svc.server.operator.Outcome.Operation;
import dev.svc.server.operator.WarningEvents.Reason;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.RoleRefBuilder;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.api.model.rbac.SubjectBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.opentelemetry.api.trace.Span;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One reconcile of one sign-in, exactly as access-server spec §6.2 lays it out: read the object, decide
 * (provision, extend, expire, or nothing), act, and say when to come back. Level-based: it decides from
 * what it reads, never from the event that queued the name, so running it twice writes nothing the
 * second time. Failures of the API are thrown; the controller retries them with back-off.
 *
 * <p><b>Thread safety:</b> thread-safe; the controller's queue never reconciles one name twice at once.
 */
final class SigninReconciler {

  /** The label every object the operator makes carries. */
  static final String MANAGED_BY = "app.kubernetes.io/managed-by";
  /** The value of {@link #MANAGED_BY}. */
  static final String MANAGER = "svc";
  /** The label naming the sign-in an object belongs to. */
  static final String SIGNIN_LABEL = SvcSignin.GROUP + "/signin";

  private static final String RBAC_GROUP = "rbac.authorization.k8s.io";

  private final KubernetesClient client;
  private final String namespace;
  private final Set<String> allowedRoles;
  private final Clock clock;
  private final Observed observed;
  private final WarningEvents events;
  private final OperatorMetrics metrics;

  /**
   * A reconciler for the sign-ins of {@code namespace}.
   *
   * @param allowedRoles the ClusterRoles that may be bound (O9); empty allows any
   */
  SigninReconciler(KubernetesClient client, String namespace, Set<String> allowedRoles, Clock clock,
      Observed observed, WarningEvents events, OperatorMetrics metrics) {
    this.client = client;
    this.namespace = namespace;
    this.allowedRoles = Set.copyOf(allowedRoles);
    this.clock = clock;
    this.observed = observed;
    this.events = events;
    this.metrics = metrics;
  }

  private NonNamespaceOperation<SvcSignin, KubernetesResourceList<SvcSignin>, Resource<SvcSignin>> signins() {
    return client.resources(SvcSignin.class).inNamespace(namespace);
  }

  /**
   * Reconciles the sign-in called {@code name}.
   *
   * @param name a {@code SvcSignin}'s name
   * @return what was done and when to come back
   * @throws KubernetesClientException when the API fails; nothing is lost, the next attempt redoes it
   */
  Outcome reconcile(String name) {
    Instant now = clock.instant();
    SvcSignin signin = observed.signin(name).filter(seen -> !expired(seen, now)).orElse(null);
    if (signin == null) {
      // Clean-up and expiry delete, so they are decided on the API's answer: the cache may not have
      // seen a sign-in just created, or the status of one just extended.
      signin = signins().withName(name).get();
    }
    if (signin == null) {
      cleanUp(name);
      return Outcome.done(Operation.DEPROVISION_NOT_FOUND);
    }
    Span.current().setAttribute("reconcile.username", Objects.toString(
        signin.getSpec() == null ? null : signin.getSpec().username(), ""));
    Optional<Valid> valid = validate(signin);
    if (valid.isEmpty()) {
      return Outcome.done(Operation.NOP);
    }
    return decide(signin, valid.get(), now);
  }

  /** Whether {@code signin}'s status says its session ended before {@code now}. */
  private static boolean expired(SvcSignin signin, Instant now) {
    SvcSigninStatus status = signin.statusOrPending();
    return status.provisioned() && Rfc3339.parse(status.validUntil()).map(until -> !now.isBefore(until)).orElse(false);
  }

  /** A sign-in whose spec can be acted on. */
  private record Valid(SigninName names, String role, Duration period) {}

  private Optional<Valid> validate(SvcSignin signin) {
    SvcSigninSpec spec = signin.getSpec();
    String name = signin.getMetadata().getName();
    Optional<SigninName> names = SigninName.ofObject(name);
    if (spec == null || blank(spec.role()) || blank(spec.username()) || names.isEmpty()) {
      events.warn(signin, Reason.InvalidSpec, "the sign-in " + name + " has no role or username, or its name"
          + " doesn't start with " + SigninName.PREFIX + ": nothing is provisioned; delete it and sign in again");
      return Optional.empty();
    }
    Duration period;
    try {
      period = GoDuration.parse(Objects.toString(spec.validityPeriod(), ""));
    } catch (IllegalArgumentException e) {
      Span.current().addEvent("parse_validity_period_failed");
      events.warn(signin, Reason.InvalidValidityPeriod, "the validity_period `" + spec.validityPeriod()
          + "` of " + name + " isn't a duration (" + e.getMessage() + "): nothing is provisioned;"
          + " sign in again or write a duration such as 45m0s");
      return Optional.empty();
    }
    if (!allowedRoles.isEmpty() && !allowedRoles.contains(spec.role())) {
      // Never bound: a session that was bound to it before the allow-list changed loses its binding.
      cleanUp(name);
      events.warn(signin, Reason.RoleNotAllowed, "the role `" + spec.role() + "` of " + name
          + " isn't in operator.allowedRoles " + allowedRoles + ": it is not bound;"
          + " grant an allowed role or add it to operator.allowedRoles");
      return Optional.empty();
    }
    return Optional.of(new Valid(names.get(), spec.role(), period));
  }

  private Outcome decide(SvcSignin signin, Valid valid, Instant now) {
    String name = signin.getMetadata().getName();
    SvcSigninStatus status = signin.statusOrPending();
    if (!status.provisioned()) {
      Span.current().addEvent("not_provisioned");
      return provision(signin, valid, now);
    }
    Optional<Instant> validUntil = Rfc3339.parse(status.validUntil());
    if (validUntil.isEmpty()) {
      Span.current().addEvent("parse_valid_until_failed");
      events.warn(signin, Reason.InvalidValidUntil, "the status valid_until `" + status.validUntil() + "` of "
          + name + " isn't an RFC 3339 time: the session is left as it is; delete it and sign in again");
      return Outcome.done(Operation.NOP);
    }
    if (!now.isBefore(validUntil.get())) {
      Span.current().addEvent("signin_expired");
      return deprovision(signin, valid);
    }
    String startText = Optional.ofNullable(signin.getMetadata().getAnnotations())
        .map(annotations -> annotations.get(SvcSignin.LAST_ATTEMPTED))
        .orElse(status.signedIn());
    Optional<Instant> start = Rfc3339.parse(startText);
    if (start.isEmpty()) {
      Span.current().addEvent("parse_signed_in_at_failed");
      events.warn(signin, Reason.InvalidSignedIn, "the sign-in time `" + startText + "` of " + name
          + " isn't an RFC 3339 time: the session is left as it is; sign in again");
      return Outcome.done(Operation.NOP);
    }
    if (!start.get().plus(valid.period()).truncatedTo(ChronoUnit.SECONDS).equals(validUntil.get())) {
      Span.current().addEvent("login_extended");
      return provision(signin, valid, now);
    }
    if (!intact(signin, valid)) {
      return provision(signin, valid, now);
    }
    return Outcome.requeueAt(Operation.NOP, validUntil.get());
  }

  /** Whether the ServiceAccount and binding are there as provisioning leaves them. */
  private boolean intact(SvcSignin signin, Valid valid) {
    return observed.serviceAccount(valid.names().serviceAccount())
            .filter(account -> ownedBy(account, signin))
            .isPresent()
        && observed.binding(valid.names().binding())
            .filter(binding -> boundAsWanted(binding, valid))
            .isPresent();
  }

  // §6.2 step 3.
  private Outcome provision(SvcSignin signin, Valid valid, Instant now) {
    if (!ensureServiceAccount(signin, valid) || !ensureBinding(signin, valid)) {
      return Outcome.done(Operation.NOP);
    }
    // Step 3.3 writes the status on the version read in step 1, not on a second read: the write carries
    // that version's resourceVersion, so if the sign-in changed meanwhile (an extension, a logout) the
    // API refuses it with 409 and the retry reads the new version; one request fewer per provisioning.
    Instant signedIn = Optional.ofNullable(signin.getMetadata().getAnnotations())
        .map(annotations -> annotations.get(SvcSignin.LAST_ATTEMPTED))
        .flatMap(Rfc3339::parse)
        .orElse(now);
    Instant validUntil = signedIn.plus(valid.period());
    SvcSigninStatus wanted = new SvcSigninStatus(true, Rfc3339.format(signedIn), Rfc3339.format(validUntil));
    if (!wanted.equals(signin.getStatus())) {
      signin.setStatus(wanted);
      signins().resource(signin).updateStatus();
      metrics.signedIn(valid.role(), signin.getSpec().username());
    }
    return Outcome.requeueAt(Operation.PROVISION, validUntil.truncatedTo(ChronoUnit.SECONDS));
  }

  /** §6.2 step 3.1; false when a ServiceAccount of that name isn't ours. */
  private boolean ensureServiceAccount(SvcSignin signin, Valid valid) {
    String name = valid.names().serviceAccount();
    Optional<ServiceAccount> existing = observed.serviceAccount(name);
    if (existing.isPresent() && ownedBy(existing.get(), signin)) {
      return true;
    }
    ServiceAccount wanted = new ServiceAccountBuilder()
        .withNewMetadata()
          .withName(name)
          .withNamespace(namespace)
          .withLabels(labels(signin))
          .withOwnerReferences(ownerReference(signin))
        .endMetadata()
        .build();
    if (existing.isEmpty()) {
      try {
        client.serviceAccounts().inNamespace(namespace).resource(wanted).create();
        return true;
      } catch (KubernetesClientException e) {
        if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
          throw e;
        }
      }
    }
    // The whole object from the API, not the cache's projection of it: the update below writes it back.
    ServiceAccount account = client.serviceAccounts().inNamespace(namespace).withName(name).get();
    if (account == null) {
      throw new KubernetesClientException("the ServiceAccount " + name + " was there and is gone; trying again");
    }
    if (!MANAGER.equals(labelsOf(account).get(MANAGED_BY)) && !controlledBySignin(account)) {
      events.warn(signin, Reason.ServiceAccountNotManaged, "the ServiceAccount " + name + " in " + namespace
          + " exists and isn't managed by svc: the sign-in is not provisioned; delete or rename that ServiceAccount");
      return false;
    }
    if (ownedBy(account, signin)) {
      return true;
    }
    // A ServiceAccount of an earlier sign-in of the same name: point it at this one (§6.2 step 3.1),
    // or the clean-up of the earlier one would take this session's ServiceAccount with it.
    List<OwnerReference> owners = new ArrayList<>(account.getMetadata().getOwnerReferences().stream()
        .filter(owner -> !Boolean.TRUE.equals(owner.getController()))
        .toList());
    owners.add(ownerReference(signin));
    account.getMetadata().setOwnerReferences(owners);
    account.getMetadata().setLabels(merged(labelsOf(account), labels(signin)));
    client.serviceAccounts().inNamespace(namespace).resource(account).update();
    return true;
  }

  /** §6.2 step 3.2; false when a binding of that name isn't ours. */
  private boolean ensureBinding(SvcSignin signin, Valid valid) {
    String name = valid.names().binding();
    Optional<ClusterRoleBinding> existing = observed.binding(name);
    if (existing.isPresent() && boundAsWanted(existing.get(), valid)) {
      return true;
    }
    ClusterRoleBinding wanted = new ClusterRoleBindingBuilder()
        .withNewMetadata()
          .withName(name)
          .withLabels(labels(signin))
        .endMetadata()
        .withRoleRef(roleRef(valid))
        .withSubjects(subject(valid))
        .build();
    if (existing.isEmpty()) {
      try {
        client.rbac().clusterRoleBindings().resource(wanted).create();
        return true;
      } catch (KubernetesClientException e) {
        if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
          throw e;
        }
      }
      existing = Optional.ofNullable(client.rbac().clusterRoleBindings().withName(name).get());
      if (existing.isEmpty()) {
        throw new KubernetesClientException("the ClusterRoleBinding " + name + " was there and is gone; trying again");
      }
      if (boundAsWanted(existing.get(), valid)) {
        return true;
      }
    }
    if (!MANAGER.equals(labelsOf(existing.get()).get(MANAGED_BY))) {
      events.warn(signin, Reason.BindingNotManaged, "the ClusterRoleBinding " + name + " exists and isn't"
          + " managed by svc: the sign-in is not provisioned; delete or rename that binding");
      return false;
    }
    // Kubernetes refuses to change a binding's roleRef: a role change is a new binding (D10).
    client.rbac().clusterRoleBindings().withName(name).delete();
    client.rbac().clusterRoleBindings().resource(wanted).create();
    return true;
  }

  // §6.2 step 4.
  private Outcome deprovision(SvcSignin signin, Valid valid) {
    String name = signin.getMetadata().getName();
    deleteOwned(valid.names());
    try {
      // Only the version found expired: a sign-in renewed meanwhile (D8) is provisioned again instead.
      signins().withName(name).lockResourceVersion(signin.getMetadata().getResourceVersion()).delete();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT && e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
        throw e;
      }
    }
    return Outcome.done(Operation.DEPROVISION);
  }

  /** §6.2 step 1: the sign-in is gone; removing what is left of it succeeds when nothing is left. */
  void cleanUp(String name) {
    events.forget(name);
    SigninName.ofObject(name).ifPresent(this::deleteOwned);
  }

  private void deleteOwned(SigninName names) {
    // delete() answers an empty list for a missing object rather than failing: NotFound is success.
    client.rbac().clusterRoleBindings().withName(names.binding()).delete();
    client.serviceAccounts().inNamespace(namespace).withName(names.serviceAccount()).delete();
  }

  /**
   * §6.2 step 6: deletes the bindings labelled as svc's whose sign-in no longer exists. ServiceAccounts
   * need no sweep: their owner reference lets Kubernetes collect them.
   *
   * @return how many bindings were deleted
   */
  int sweepOrphans() {
    int deleted = 0;
    for (ClusterRoleBinding binding : client.rbac().clusterRoleBindings().withLabel(MANAGED_BY, MANAGER).list()
        .getItems()) {
      String signin = labelsOf(binding).get(SIGNIN_LABEL);
      if (signin == null || signins().withName(signin).get() == null) {
        client.rbac().clusterRoleBindings().withName(binding.getMetadata().getName()).delete();
        deleted++;
      }
    }
    return deleted;
  }

  private static boolean ownedBy(ServiceAccount account, SvcSignin signin) {
    return account.getMetadata().getOwnerReferences().stream().anyMatch(owner ->
        Boolean.TRUE.equals(owner.getController()) && signin.getMetadata().getUid().equals(owner.getUid()));
  }

  private static boolean controlledBySignin(ServiceAccount account) {
    return account.getMetadata().getOwnerReferences().stream().anyMatch(owner ->
        Boolean.TRUE.equals(owner.getController()) && SvcSignin.KIND.equals(owner.getKind()));
  }

  private boolean boundAsWanted(ClusterRoleBinding binding, Valid valid) {
    RoleRef ref = binding.getRoleRef();
    List<Subject> subjects = binding.getSubjects();
    // Compared field by field: the API fills in defaults (such as an empty apiGroup) a built object lacks.
    return ref != null && RBAC_GROUP.equals(ref.getApiGroup()) && "ClusterRole".equals(ref.getKind())
        && valid.role().equals(ref.getName())
        && subjects != null && subjects.size() == 1
        && "ServiceAccount".equals(subjects.get(0).getKind())
        && valid.names().serviceAccount().equals(subjects.get(0).getName())
        && namespace.equals(subjects.get(0).getNamespace());
  }

  private static RoleRef roleRef(Valid valid) {
    return new RoleRefBuilder().withApiGroup(RBAC_GROUP).withKind("ClusterRole").withName(valid.role()).build();
  }

  private Subject subject(Valid valid) {
    return new SubjectBuilder().withKind("ServiceAccount").withName(valid.names().serviceAccount())
        .withNamespace(namespace).build();
  }

  private static OwnerReference ownerReference(SvcSignin signin) {
    return new OwnerReferenceBuilder()
        .withApiVersion(SvcSignin.GROUP + "/" + SvcSignin.VERSION)
        .withKind(SvcSignin.KIND)
        .withName(signin.getMetadata().getName())
        .withUid(signin.getMetadata().getUid())
        .withController(true)
        .build();
  }

  private static Map<String, String> labels(SvcSignin signin) {
    return Map.of(MANAGED_BY, MANAGER, SIGNIN_LABEL, signin.getMetadata().getName());
  }

  private static Map<String, String> labelsOf(HasMetadata object) {
    return Optional.ofNullable(object.getMetadata().getLabels()).orElse(Map.of());
  }

  private static Map<String, String> merged(Map<String, String> base, Map<String, String> over) {
    Map<String, String> all = new TreeMap<>(base);
    all.putAll(over);
    return all;
  }

  private static boolean blank(String text) {
    return text == null || text.isBlank();
  }
}
