package dev.svc.server.kube;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.APIVersionsBuilder;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The API discovery documents of the embedded API ({@code /api}, {@code /api/v1}, {@code /apis},
 * {@code /apis/<group>/<version>}), which fabric8's CRUD store doesn't serve for built-in kinds: with them
 * {@code kubectl} works against the embedded API ({@code kubectl get svcsignins}, {@code kubectl apply
 * --dry-run=client --validate=false -f conf/kubernetes/}). They list the kinds svc and its manifests use,
 * as Kubernetes {@value EmbeddedCluster#MAJOR}.{@value EmbeddedCluster#MINOR} serves them, and the
 * {@code SvcSignin} resource. The OpenAPI schema kubectl validates against is not served. Every other
 * request goes to the dispatcher underneath.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
final class Discovery extends Dispatcher {

  private static final List<String> VERBS =
      List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

  // group/version ("v1" for the core group) -> its resources, in the order /apis lists the groups.
  private static final Map<String, List<APIResource>> SERVED = served();

  private final Dispatcher next;

  Discovery(Dispatcher next) {
    this.next = next;
  }

  private static Map<String, List<APIResource>> served() {
    Map<String, List<APIResource>> served = new LinkedHashMap<>();
    served.put("v1", List.of(
        resource("namespaces", "Namespace", false),
        resource("serviceaccounts", "ServiceAccount", true, "sa"),
        resource("persistentvolumeclaims", "PersistentVolumeClaim", true, "pvc"),
        resource("configmaps", "ConfigMap", true, "cm"),
        resource("secrets", "Secret", true),
        resource("events", "Event", true, "ev")));
    served.put("apps/v1", List.of(resource("deployments", "Deployment", true, "deploy")));
    served.put("rbac.authorization.k8s.io/v1", List.of(
        resource("roles", "Role", true),
        resource("rolebindings", "RoleBinding", true),
        resource("clusterroles", "ClusterRole", false),
        resource("clusterrolebindings", "ClusterRoleBinding", false)));
    served.put("networking.k8s.io/v1", List.of(resource("networkpolicies", "NetworkPolicy", true, "netpol")));
    served.put("apiextensions.k8s.io/v1",
        List.of(resource("customresourcedefinitions", "CustomResourceDefinition", false, "crd", "crds")));
    served.put("coordination.k8s.io/v1", List.of(resource("leases", "Lease", true)));
    served.put(SvcSignin.GROUP + "/" + SvcSignin.VERSION, List.of(
        new APIResourceBuilder(resource(SvcSignin.PLURAL, SvcSignin.KIND, true, SvcSignin.SHORT_NAME))
            .withSingularName(SvcSignin.SINGULAR).build(),
        new APIResourceBuilder().withName(SvcSignin.PLURAL + "/status").withKind(SvcSignin.KIND).withNamespaced(true)
            .withSingularName("").withVerbs("get", "patch", "update").build()));
    return served;
  }

  private static APIResource resource(String plural, String kind, boolean namespaced, String... shortNames) {
    return new APIResourceBuilder().withName(plural).withSingularName(kind.toLowerCase(java.util.Locale.ROOT))
        .withKind(kind).withNamespaced(namespaced).withVerbs(VERBS).withShortNames(shortNames).build();
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    String path = request.getPath();
    int query = path.indexOf('?');
    String document = query < 0 ? path : path.substring(0, query);
    Object answer = request.method() == HttpMethod.GET ? document(document) : null;
    if (answer == null) {
      return next.dispatch(request);
    }
    return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
        .setBody(Serialization.asJson(answer));
  }

  /** The discovery document at {@code path}, or null when it isn't one. */
  private static Object document(String path) {
    if (path.equals("/api")) {
      return new APIVersionsBuilder().withVersions("v1").build();
    }
    if (path.equals("/apis")) {
      return new APIGroupListBuilder().withGroups(SERVED.keySet().stream()
          .filter(groupVersion -> groupVersion.contains("/"))
          .map(Discovery::group)
          .toList()).build();
    }
    String groupVersion = path.startsWith("/api/") ? path.substring("/api/".length())
        : path.startsWith("/apis/") ? path.substring("/apis/".length()) : null;
    List<APIResource> resources = groupVersion == null ? null : SERVED.get(groupVersion);
    if (resources == null || path.startsWith("/api/") == groupVersion.contains("/")) {
      return null;
    }
    return new APIResourceListBuilder().withGroupVersion(groupVersion).withResources(resources).build();
  }

  private static APIGroup group(String groupVersion) {
    GroupVersionForDiscovery version = new GroupVersionForDiscovery(groupVersion,
        groupVersion.substring(groupVersion.indexOf('/') + 1));
    return new APIGroupBuilder().withName(groupVersion.substring(0, groupVersion.indexOf('/')))
        .withVersions(version).withPreferredVersion(version).build();
  }

  @Override
  public void shutdown() {
    next.shutdown();
  }

  @Override
  public void releaseResources() {
    next.releaseResources();
  }
}
