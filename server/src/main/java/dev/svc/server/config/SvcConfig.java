package dev.svc.server.config;

import dev.svc.engine.Isolation;
import dev.svc.server.mesh.GrantRule;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The whole configuration of svc, validated: one record per section of the keys
 * (access-server spec §2.5), each field the key of the same name. {@link ConfigLoader} builds it from
 * flags, environment, config file and defaults; a record built by hand skips that validation.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param debug debug logging
 * @param mesh how the server joins the mesh and admits callers
 * @param server the API listener's HTTP timeouts
 * @param health the health and metrics listener
 * @param otel OpenTelemetry export
 * @param kubernetes where the Kubernetes API comes from
 * @param operator the operator's names for sign-ins and issued kubeconfigs
 * @param api API answers
 * @param output the command line's output
 * @param clusterInfo the cluster connection details handed to users
 * @param engine the policy engine's pool
 * @param policies the policies installed from files at start-up
 */
public record SvcConfig(
    boolean debug,
    Mesh mesh,
    Server server,
    Health health,
    Otel otel,
    Kubernetes kubernetes,
    Operator operator,
    Api api,
    Output output,
    ClusterInfo clusterInfo,
    Engine engine,
    Policies policies) {

  /** How the server's node joins the tailnet ({@code mesh.mode}). */
  public enum MeshMode {
    /** Start and drive our own {@code tailscaled} in {@code mesh.stateDir}. */
    MANAGED,
    /** Use a daemon someone else runs, at {@code mesh.socket}. */
    EXTERNAL,
    /** No tailnet: a loopback listener where every caller is {@code mesh.dev.login}. */
    DEV
  }

  /** Where the Kubernetes API comes from ({@code kubernetes.mode}). */
  public enum KubernetesMode {
    /**
     * The fabric8 client's usual resolution: the in-cluster service account, else {@code KUBECONFIG}
     * or {@code ~/.kube/config}.
     */
    CLUSTER,
    /** An in-process Kubernetes API for trying svc on one machine; never for production. */
    EMBEDDED
  }

  /**
   * The {@code mesh.*} keys.
   *
   * @param hostname the node's name on the mesh
   * @param port the API port; 443 means HTTPS, 0 any free port
   * @param stateDir the node's state directory; empty means a per-user default
   * @param tailnet the mesh DNS suffix (command line only); empty when unset
   * @param capName the capability name whose grants admit callers
   * @param mode how the node joins the tailnet
   * @param socket the daemon's local API socket; empty means the mode's default
   * @param tailscaled the daemon binary for {@link MeshMode#MANAGED}
   * @param controlUrl the control server URL; empty means the daemon's default
   * @param logUpload whether the managed daemon uploads its logs
   * @param dev the identity every caller has in {@link MeshMode#DEV}
   */
  public record Mesh(
      String hostname,
      int port,
      String stateDir,
      String tailnet,
      String capName,
      MeshMode mode,
      String socket,
      String tailscaled,
      String controlUrl,
      boolean logUpload,
      DevCaller dev) {}

  /**
   * The {@code mesh.dev.*} keys: the one caller of {@link MeshMode#DEV}.
   *
   * @param login the caller's login name
   * @param grants the caller's rules under {@code mesh.capName}
   */
  public record DevCaller(String login, List<GrantRule> grants) {

    /**
     * Copies the list.
     *
     * @param login the caller's login name
     * @param grants the caller's rules
     */
    public DevCaller {
      grants = List.copyOf(grants);
    }
  }

  /**
   * The {@code server.*} keys: the API listener's HTTP timeouts, zero meaning none. How each maps
   * onto the HTTP server is {@code dev.svc.server.http.HttpTimeouts}'s to say.
   *
   * @param readTimeout the most time to read a whole request
   * @param readHeaderTimeout the most time to read a request's headers
   * @param writeTimeout the most time to write the response
   * @param idleTimeout how long a kept-alive connection may stay silent
   */
  public record Server(
      Duration readTimeout, Duration readHeaderTimeout, Duration writeTimeout, Duration idleTimeout) {}

  /**
   * The {@code health.*} keys.
   *
   * @param port the health and metrics port; the key's 0 is read as 8080, so 0 here (from a record
   *     built by hand) picks a free port
   */
  public record Health(int port) {}

  /**
   * The {@code otel.*} keys.
   *
   * @param endpoint the OTLP endpoint as an {@code http} or {@code https} URL (holding 4317: gRPC, 4318:
   *     HTTP); empty disables export
   * @param insecure plaintext transport; agrees with the endpoint's scheme
   */
  public record Otel(Optional<URI> endpoint, boolean insecure) {}

  /**
   * The {@code kubernetes.*} keys.
   *
   * @param mode where the Kubernetes API comes from
   */
  public record Kubernetes(KubernetesMode mode) {}

  /**
   * The {@code operator.*} keys.
   *
   * @param namespace the namespace of sign-ins and ServiceAccounts
   * @param clusterName the cluster entry's name in issued kubeconfigs
   * @param contextPrefix the context name prefix
   * @param userPrefix the user entry prefix
   * @param allowedRoles the ClusterRoles grants may name, each once; empty means any
   */
  public record Operator(
      String namespace, String clusterName, String contextPrefix, String userPrefix, List<String> allowedRoles) {

    /**
     * Copies the roles.
     *
     * @param namespace the namespace of sign-ins and ServiceAccounts
     * @param clusterName the cluster entry's name
     * @param contextPrefix the context name prefix
     * @param userPrefix the user entry prefix
     * @param allowedRoles the ClusterRoles grants may name
     */
    public Operator {
      allowedRoles = List.copyOf(allowedRoles);
    }
  }

  /**
   * The {@code api.*} keys.
   *
   * @param retryAfterSeconds the {@code Retry-After} value, at least 1
   */
  public record Api(int retryAfterSeconds) {}

  /**
   * The {@code engine.*} keys.
   *
   * @param poolSize how many engine instances serve the API; 0 means one per available processor
   * @param evalTimeout the timeout of an evaluation that names none; zero means none
   * @param acquireTimeout how long a request waits for a free instance before it is answered 503
   * @param maxMemory the most linear memory, in bytes, one instance may grow to
   * @param maxEvalTimeout the largest {@code timeout_ms} an evaluation may ask for; positive
   * @param isolation where each instance runs ({@code engine.isolation}: {@code in-process} or
   *     {@code process})
   * @param loopEvalBudget the most time an evaluation of a small body may run on the API's event
   *     loop, when an instance is idle, before it moves to the pool's threads; zero runs every
   *     evaluation there
   */
  public record Engine(int poolSize, Duration evalTimeout, Duration acquireTimeout, long maxMemory,
      Duration maxEvalTimeout, Isolation isolation, Duration loopEvalBudget) {

    /**
     * The number of instances the pool keeps.
     *
     * @return {@link #poolSize}, or the available processors when it is 0
     */
    public int instances() {
      return poolSize > 0 ? poolSize : Runtime.getRuntime().availableProcessors();
    }

    /**
     * The budget the event loops evaluate with: {@link #loopEvalBudget}, or zero for instances out of
     * process, whose calls always wait for another process and would hold the loop for it.
     *
     * @return zero when no evaluation runs on an event loop
     */
    public Duration loopEvalBudgetInEffect() {
      return isolation == Isolation.PROCESS ? Duration.ZERO : loopEvalBudget;
    }
  }

  /**
   * The {@code policies.*} keys.
   *
   * @param dir the directory of {@code .sigil} files; empty when no policy comes from files
   * @param install what to install: each name a policy is served under, with the root policy
   *     compiled for it, in the order the key lists them
   * @param reload whether changed files are compiled and installed again while serving
   */
  public record Policies(Optional<Path> dir, Map<String, String> install, boolean reload) {

    /**
     * Copies the install map, keeping its order.
     *
     * @param dir the directory of {@code .sigil} files
     * @param install served name to root policy
     * @param reload whether to reload
     */
    public Policies {
      install = Collections.unmodifiableMap(new LinkedHashMap<>(install));
    }
  }

  /**
   * The {@code output.*} keys, read by the command line.
   *
   * @param theme the colour theme's name
   * @param longHelp {@code output.long}: full help output
   * @param quiet machine output only
   * @param markdownlintFix run {@code markdownlint-cli2 --fix} on generated documentation
   */
  public record Output(String theme, boolean longHelp, boolean quiet, boolean markdownlintFix) {}

  /**
   * The {@code clusterInfo.*} keys.
   *
   * @param apiEndpoint the Kubernetes API URL handed to users
   * @param caData the cluster CA, base64 of PEM, checked to be base64
   * @param insecureSkipTlsVerify tell clients to skip TLS verification
   * @param labels free-form labels shown to users
   * @param configMapRef where to read the endpoint and CA from instead
   */
  public record ClusterInfo(
      String apiEndpoint,
      String caData,
      boolean insecureSkipTlsVerify,
      Map<String, String> labels,
      ConfigMapRef configMapRef) {

    /**
     * Copies the labels.
     *
     * @param apiEndpoint the Kubernetes API URL
     * @param caData the cluster CA
     * @param insecureSkipTlsVerify skip TLS verification
     * @param labels the labels
     * @param configMapRef the ConfigMap reference
     */
    public ClusterInfo {
      labels = Map.copyOf(labels);
    }
  }

  /**
   * The {@code clusterInfo.configMapRef.*} keys.
   *
   * @param enabled read the endpoint and CA from the ConfigMap
   * @param name the ConfigMap's name
   * @param namespace the ConfigMap's namespace
   * @param keys the data keys to read
   */
  public record ConfigMapRef(boolean enabled, String name, String namespace, ConfigMapKeys keys) {}

  /**
   * The {@code clusterInfo.configMapRef.keys.*} keys.
   *
   * @param apiEndpoint the data key holding the API URL
   * @param caData the data key holding the base64 CA
   * @param insecure the data key holding a boolean-like string
   * @param clientconfig the data key holding an embedded client kubeconfig
   */
  public record ConfigMapKeys(String apiEndpoint, String caData, String insecure, String clientconfig) {}
}
