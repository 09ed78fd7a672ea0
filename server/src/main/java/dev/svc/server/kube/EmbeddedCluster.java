package dev.svc.server.kube;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.dsl.MockServerExpectation;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;

/**
 * {@code kubernetes.mode: embedded}: an in-process stand-in for the Kubernetes API, for trying svc on
 * one machine. It is fabric8's mock API server in CRUD mode (objects kept in memory, watches, the status
 * subresource) on the loopback interface over plain HTTP, reporting Kubernetes {@value #MAJOR}.{@value #MINOR},
 * with the {@code SvcSignin} definition of {@code conf/kubernetes/} installed, {@code operator.namespace}
 * created, TokenRequests answered with minted tokens ({@link TokenMinter}), and the discovery documents
 * kubectl needs ({@link Discovery}). Nothing it holds
 * survives the process, and its tokens mean nothing to a real cluster: it says so loudly when it
 * starts. Tests use it as their API server too, adding failures with {@link #expect()}.
 *
 * <p>The mock server is built on Vert.x 4's API; its calls all exist in our Vert.x 5, where it runs
 * its own Vert.x instance (shared/notes/java-stack.md §1.2).
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class EmbeddedCluster implements AutoCloseable {

  /** The major version it reports. */
  static final String MAJOR = "1";
  /** The minor version it reports: a current release. */
  static final String MINOR = "31";

  private static final Logger LOG = System.getLogger(EmbeddedCluster.class.getName());
  private static final String CRD_RESOURCE = "crd-svcsignins.yaml";

  private final KubernetesMockServer server;

  private EmbeddedCluster(KubernetesMockServer server) {
    this.server = server;
  }

  /**
   * Starts an embedded API on a free loopback port with the sign-in definition and {@code namespace};
   * blocking, so call it off the event loop.
   *
   * @param namespace {@code operator.namespace}, created in it
   * @param clock the clock minted tokens expire by
   * @return the running API
   */
  public static EmbeddedCluster start(String namespace, Clock clock) {
    Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
    KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(),
        expectations, new Discovery(new TokenMinter(new KubernetesMixedDispatcher(expectations), expectations, clock)),
        false,
        new VersionInfo.Builder().withMajor(MAJOR).withMinor(MINOR).withGitVersion("v" + MAJOR + "." + MINOR + ".0")
            .build());
    server.init(InetAddress.getLoopbackAddress(), 0);
    EmbeddedCluster cluster = new EmbeddedCluster(server);
    try (KubernetesClient client = new KubernetesClientBuilder().withHttpClientFactory(new JdkHttpClientFactory())
        .withConfig(cluster.config()).build()) {
      client.apiextensions().v1().customResourceDefinitions().resource(definition()).create();
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
          .create();
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
    LOG.log(Level.WARNING, "kubernetes mode embedded: no cluster. An in-process stand-in for the Kubernetes API"
        + " listens at {0}, keeps sign-ins in memory until svc stops, and mints tokens that mean nothing to a"
        + " real cluster. Never use kubernetes mode embedded in production", cluster.url());
    return cluster;
  }

  /** The sign-in definition as shipped in conf/kubernetes (packaged into the jar). */
  static CustomResourceDefinition definition() {
    try (InputStream in = EmbeddedCluster.class.getResourceAsStream(CRD_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(CRD_RESOURCE + " isn't packaged next to " + EmbeddedCluster.class.getName());
      }
      return Serialization.unmarshal(in, CustomResourceDefinition.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The API's URL.
   *
   * @return such as {@code http://127.0.0.1:41234}
   */
  public String url() {
    return "http://" + InetAddress.getLoopbackAddress().getHostAddress() + ":" + server.getPort();
  }

  /**
   * How a client reaches it.
   *
   * @return a client configuration with the URL and a placeholder token
   */
  public Config config() {
    return new ConfigBuilder(Config.empty()).withMasterUrl(url()).withOauthToken("embedded").build();
  }

  /**
   * Scripts an answer ahead of the store, for a test's failures.
   *
   * @return the expectation builder of the mock server
   */
  public MockServerExpectation expect() {
    return server.expect();
  }

  /**
   * Stops the API; what it held is gone.
   */
  @Override
  public void close() {
    server.destroy();
  }
}
