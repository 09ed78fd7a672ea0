package dev.svc.server.operator;

import dev.svc.server.kube.SvcSignin;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Warning events on sign-ins the operator can't act on ({@code kubectl describe signin} shows them).
 * One event per object version and reason: a resync of an unchanged object doesn't repeat it. An
 * event that can't be written is logged and otherwise ignored; it never fails a reconcile.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
final class WarningEvents {

  /** The component events name as their source. */
  static final String COMPONENT = "svc-operator";

  /** Reasons, UpperCamelCase as Kubernetes writes them. */
  enum Reason {
    InvalidValidityPeriod,
    InvalidValidUntil,
    InvalidSignedIn,
    InvalidSpec,
    RoleNotAllowed,
    ServiceAccountNotManaged,
    BindingNotManaged
  }

  private static final Logger LOG = System.getLogger(WarningEvents.class.getName());

  private final KubernetesClient client;
  private final String namespace;
  private final Clock clock;
  // The object version each name was last warned about, per reason.
  private final Map<String, String> warned = new ConcurrentHashMap<>();

  WarningEvents(KubernetesClient client, String namespace, Clock clock) {
    this.client = client;
    this.namespace = namespace;
    this.clock = clock;
  }

  /** Writes a Warning event on {@code signin}, unless this version already got one for {@code reason}. */
  void warn(SvcSignin signin, Reason reason, String message) {
    String name = signin.getMetadata().getName();
    String version = signin.getMetadata().getResourceVersion() + "/" + reason;
    if (version.equals(warned.put(name, version))) {
      return;
    }
    LOG.log(Level.WARNING, "sign-in " + name + ": " + message);
    String now = clock.instant().toString();
    Event event = new EventBuilder()
        .withNewMetadata()
          .withGenerateName(name + ".")
          .withNamespace(namespace)
        .endMetadata()
        .withInvolvedObject(new ObjectReferenceBuilder()
            .withApiVersion(SvcSignin.GROUP + "/" + SvcSignin.VERSION)
            .withKind(SvcSignin.KIND)
            .withNamespace(namespace)
            .withName(name)
            .withUid(signin.getMetadata().getUid())
            .withResourceVersion(signin.getMetadata().getResourceVersion())
            .build())
        .withType("Warning")
        .withReason(reason.name())
        .withMessage(message)
        .withNewSource().withComponent(COMPONENT).endSource()
        .withReportingComponent(COMPONENT)
        .withFirstTimestamp(now)
        .withLastTimestamp(now)
        .withCount(1)
        .build();
    try {
      client.v1().events().inNamespace(namespace).resource(event).create();
    } catch (KubernetesClientException e) {
      LOG.log(Level.WARNING, "can't write the event on sign-in " + name + ": " + e.getMessage());
    }
  }

  /** Forgets {@code name} once its object is gone. */
  void forget(String name) {
    warned.remove(name);
  }
}
