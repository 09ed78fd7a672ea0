package dev.svc.client;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Sends the API's requests (access-server spec §4) to one server and returns the answers as they
 * come; which status is a success is for the caller to say. With a trace writer every request and
 * answer is printed there ({@code --debug}, deviation D28).
 *
 * <p><b>Thread safety:</b> thread-safe; the trace lines of concurrent requests may interleave.
 */
public final class AccessClient {

  /** The longest a request may take, connecting included (§11.1). */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  private static final String YAML = "application/yaml";
  private static final List<String> CONNECTION_ADVICE = List.of(
      "check that this machine is connected to the mesh, such as with `tailscale status`",
      "check the server's name and port: --server, --port, mesh.tailnet in the config file");

  private final ServerAddress address;
  private final HttpClient http;
  private final Duration timeout;
  private final Optional<PrintWriter> trace;
  private final Clock clock;

  /**
   * A client of the server at {@code address}.
   *
   * @param address where the server listens
   * @param timeout the longest one request may take
   * @param trace where to print each request and answer, if anywhere
   * @param clock the clock that times the requests in the trace
   */
  public AccessClient(ServerAddress address, Duration timeout, Optional<PrintWriter> trace, Clock clock) {
    this.address = address;
    this.timeout = timeout;
    this.trace = trace;
    this.clock = clock;
    this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NORMAL).build();
  }

  /**
   * The server this client talks to.
   *
   * @return the address
   */
  public ServerAddress address() {
    return address;
  }

  /**
   * {@code POST /login}: starts or extends the caller's session.
   *
   * @return the answer, 202 on success
   */
  public ApiResponse login() {
    return send("POST", "/login", "application/json");
  }

  /**
   * {@code GET /login}: the caller's session.
   *
   * @return the answer, 200 when provisioned, 202 when not yet
   */
  public ApiResponse session() {
    return send("GET", "/login", "application/json");
  }

  /**
   * {@code GET /kubeconfig} in YAML: a kubeconfig with a fresh token.
   *
   * @return the answer, 200 with the kubeconfig, 202 when the session isn't provisioned yet
   */
  public ApiResponse kubeconfig() {
    return send("GET", "/kubeconfig", YAML);
  }

  /**
   * {@code POST /logout}: ends the caller's session.
   *
   * @return the answer, 200 on success, 404 when not signed in
   */
  public ApiResponse logout() {
    return send("POST", "/logout", "application/json");
  }

  /**
   * {@code GET /cluster-info}: the cluster's connection details.
   *
   * @return the answer, 200 on success
   */
  public ApiResponse clusterInfo() {
    return send("GET", "/cluster-info", "application/json");
  }

  private ApiResponse send(String method, String route, String accept) {
    URI uri = address.api(route);
    HttpRequest request = HttpRequest.newBuilder(uri)
        .timeout(timeout)
        .header("Accept", accept)
        .method(method, HttpRequest.BodyPublishers.noBody())
        .build();
    trace.ifPresent(out -> out.printf("→ %s %s (Accept: %s)%n", method, uri, accept));
    long start = clock.millis();
    try {
      HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
      Optional<String> retryAfter = response.headers().firstValue("Retry-After");
      trace.ifPresent(out -> {
        out.printf("← %d %s %s in %d ms, %d bytes%s%n", response.statusCode(), method, uri, clock.millis() - start,
            response.body().length, retryAfter.map(v -> ", Retry-After: " + v).orElse(""));
        out.flush();
      });
      return new ApiResponse(response.statusCode(), ApiResponse.retryAfter(retryAfter), response.body());
    } catch (HttpTimeoutException e) {
      throw failure(method, uri, "timed out after " + readable(timeout), e);
    } catch (ConnectException e) {
      throw failure(method, uri, "couldn't connect", e);
    } catch (IOException e) {
      throw failure(method, uri, "failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ClientException(Problem.of(method + " " + uri + " was interrupted"));
    }
  }

  private static String readable(Duration duration) {
    return duration.toMillisPart() == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
  }

  private ClientException failure(String method, URI uri, String what, IOException e) {
    trace.ifPresent(out -> {
      out.printf("✗ %s %s %s: %s%n", method, uri, what, e);
      out.flush();
    });
    String cause = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return new ClientException(new Problem(method + " " + uri + " " + what, CONNECTION_ADVICE, List.of(cause)));
  }
}
