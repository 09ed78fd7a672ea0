package dev.svc.server.kube;

import dev.svc.server.StartException;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's connection to the Kubernetes API: a fabric8 client on the JDK's HTTP client, and a pool
 * of worker threads its blocking calls run on, so no event loop ever waits for the API ({@link #call}
 * answers with a Vert.x future). Every request is bounded by a timeout and not retried: the caller
 * decides what a failure means, within its own deadline.
 *
 * <p>{@link #check()} is start-up step 4 of access-server spec §1.3: the API answers, is at least
 * Kubernetes {@value #MIN_MAJOR}.{@value #MIN_MINOR}, and serves the {@code SvcSignin} resource.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class KubernetesConnection implements AutoCloseable {

  /** The oldest Kubernetes served: TokenRequest and its expiration are stable from 1.24 on. */
  static final int MIN_MAJOR = 1;
  /** The minor version of the oldest Kubernetes served. */
  static final int MIN_MINOR = 24;

  // Enough threads for a burst of sign-ins without queueing behind one slow call; they idle otherwise.
  private static final int WORKERS = 8;
  // A version such as "24", "24+" (managed clusters) or "30-gke.1".
  private static final Pattern LEADING_NUMBER = Pattern.compile("^(\\d+)");

  private final KubernetesClient client;
  private final WorkerExecutor workers;
  private final String origin;

  private KubernetesConnection(KubernetesClient client, WorkerExecutor workers, String origin) {
    this.client = client;
    this.workers = workers;
    this.origin = origin;
  }

  /**
   * A connection as fabric8 finds the cluster: the pod's service account in a cluster, else
   * {@code KUBECONFIG} or {@code ~/.kube/config}.
   *
   * @param vertx where the workers live
   * @param timeout the most time one request to the API may take
   * @return the connection, not yet checked
   */
  public static KubernetesConnection fromEnvironment(Vertx vertx, Duration timeout) {
    Config found = Config.autoConfigure(null);
    return of(vertx, found, timeout, "the cluster at " + found.getMasterUrl());
  }

  /**
   * A connection with {@code config}.
   *
   * @param vertx where the workers live
   * @param config where the API is and how to authenticate
   * @param timeout the most time one request to the API may take
   * @param origin the API in words, for messages, such as {@code the cluster at https://10.0.0.1:6443}
   * @return the connection, not yet checked
   */
  public static KubernetesConnection of(Vertx vertx, Config config, Duration timeout, String origin) {
    int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    Config bounded = new ConfigBuilder(config)
        .withRequestTimeout(millis)
        .withConnectionTimeout(millis)
        // No retries: a retried request can outlast the HTTP answer waiting for it.
        .withRequestRetryBackoffLimit(0)
        .build();
    KubernetesClient client = new KubernetesClientBuilder()
        .withHttpClientFactory(new JdkHttpClientFactory())
        .withConfig(bounded)
        .build();
    WorkerExecutor workers = vertx.createSharedWorkerExecutor("svc-kubernetes", WORKERS,
        Math.max(1, 2 * timeout.toMillis()), TimeUnit.MILLISECONDS);
    return new KubernetesConnection(client, workers, origin);
  }

  /**
   * Runs {@code call} on a worker thread.
   *
   * @param <T> the result's type
   * @param call blocking calls of the client
   * @return completes on the caller's context with the result, or fails with what {@code call} threw
   */
  public <T> Future<T> call(Callable<T> call) {
    return workers.executeBlocking(call, false);
  }

  /**
   * The client, for calls inside {@link #call}.
   *
   * @return the client
   */
  public KubernetesClient client() {
    return client;
  }

  /**
   * The sign-ins of {@code namespace}.
   *
   * @param namespace {@code operator.namespace}
   * @return the typed resource operations; blocking, use them inside {@link #call}
   */
  public NonNamespaceOperation<SvcSignin, KubernetesResourceList<SvcSignin>, Resource<SvcSignin>> signins(
      String namespace) {
    return client.resources(SvcSignin.class).inNamespace(namespace);
  }

  /**
   * Start-up step 4 (access-server spec §1.3): the API answers, its version is at least 1.24, and it
   * serves {@code svcsignins.access.svc.dev}.
   *
   * @return completes when all holds; fails with a {@link StartException} naming what doesn't
   */
  public Future<Void> check() {
    return call(() -> {
      VersionInfo version = version();
      if (!supported(version)) {
        throw new StartException(origin + " runs Kubernetes " + version.getMajor() + "." + version.getMinor()
            + ", older than " + MIN_MAJOR + "." + MIN_MINOR,
            "use Kubernetes " + MIN_MAJOR + "." + MIN_MINOR + " or newer: svc needs its TokenRequest API", null);
      }
      if (!servesSignins()) {
        throw new StartException(origin + " doesn't serve the resource " + SvcSignin.CRD_NAME,
            "install it with `kubectl apply -f conf/kubernetes/crd-svcsignins.yaml`", null);
      }
      return null;
    });
  }

  private VersionInfo version() {
    try {
      return client.getKubernetesVersion();
    } catch (KubernetesClientException e) {
      throw new StartException("can't reach the Kubernetes API of " + origin + ": " + rootMessage(e),
          "check that the cluster runs and that KUBECONFIG (or the pod's service account) points at it,"
              + " or try svc on one machine with kubernetes.mode embedded (--kubernetes-mode embedded)", e);
    }
  }

  // fabric8 wraps what went wrong in "An error has occurred."; the innermost message says what.
  private static String rootMessage(Throwable failure) {
    Throwable root = failure;
    int depth = 0;
    while (root.getCause() != null && root.getCause() != root && depth++ < 8) {
      root = root.getCause();
    }
    String message = root.getMessage();
    return message == null || message.isEmpty() ? root.getClass().getSimpleName() : message.replace('\n', ' ');
  }

  /** Whether {@code version} is at least the oldest served. */
  static boolean supported(VersionInfo version) {
    Matcher major = LEADING_NUMBER.matcher(String.valueOf(version.getMajor()));
    Matcher minor = LEADING_NUMBER.matcher(String.valueOf(version.getMinor()));
    if (!major.find() || !minor.find()) {
      return false;
    }
    int ma = Integer.parseInt(major.group(1));
    int mi = Integer.parseInt(minor.group(1));
    return ma > MIN_MAJOR || ma == MIN_MAJOR && mi >= MIN_MINOR;
  }

  private boolean servesSignins() {
    APIResourceList resources;
    try {
      resources = client.getApiResources(SvcSignin.GROUP + "/" + SvcSignin.VERSION);
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return false;
      }
      throw new StartException("can't list the resources of " + SvcSignin.GROUP + " on " + origin + ": "
          + e.getMessage(), "check that svc's service account may read the API's discovery documents", e);
    }
    List<APIResource> served = resources == null ? List.of() : resources.getResources();
    return served.stream().anyMatch(r -> SvcSignin.PLURAL.equals(r.getName()));
  }

  /**
   * Closes the client; the workers go with Vert.x.
   */
  @Override
  public void close() {
    workers.close();
    client.close();
  }
}
