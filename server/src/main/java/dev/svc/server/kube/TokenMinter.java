package dev.svc.server.kube;

import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestSpec;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestStatus;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.internal.SimpleRequest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Queue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The TokenRequest subresource for the embedded API, which fabric8's CRUD store doesn't answer: a
 * {@code POST .../serviceaccounts/<name>/token} for a ServiceAccount the store holds gets a minted token
 * (random, meaningless to any real cluster) expiring after the asked {@code expirationSeconds}; for one
 * it doesn't hold, the store's 404. Everything else, and a token request a test scripted an
 * expectation for, goes to the dispatcher underneath.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
final class TokenMinter extends Dispatcher {

  private static final Pattern TOKEN_PATH =
      Pattern.compile("^/api/v1/namespaces/([^/]+)/serviceaccounts/([^/?]+)/token(\\?.*)?$");
  // What a real API server issues when a request names no lifetime.
  private static final long DEFAULT_SECONDS = 3600;

  private final Dispatcher store;
  private final Map<ServerRequest, Queue<ServerResponse>> expectations;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  TokenMinter(Dispatcher store, Map<ServerRequest, Queue<ServerResponse>> expectations, Clock clock) {
    this.store = store;
    this.expectations = expectations;
    this.clock = clock;
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    Matcher token = TOKEN_PATH.matcher(request.getPath());
    if (request.method() != HttpMethod.POST || !token.matches() || scripted(request)) {
      return store.dispatch(request);
    }
    String account = "/api/v1/namespaces/" + token.group(1) + "/serviceaccounts/" + token.group(2);
    MockResponse found = store.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.GET, account,
        new Headers.Builder().build(), new Buffer()));
    if (found.code() != 200) {
      return found;
    }
    TokenRequest asked = Serialization.unmarshal(request.getUtf8Body(), TokenRequest.class);
    TokenRequestSpec spec = asked.getSpec();
    long seconds = spec != null && spec.getExpirationSeconds() != null ? spec.getExpirationSeconds() : DEFAULT_SECONDS;
    Instant expires = clock.instant().plusSeconds(seconds);
    asked.setStatus(new TokenRequestStatus(Rfc3339.format(expires), mint(token.group(1), token.group(2))));
    return new MockResponse().setResponseCode(201)
        .setHeader("Content-Type", "application/json")
        .setBody(Serialization.asJson(asked));
  }

  private boolean scripted(RecordedRequest request) {
    Queue<ServerResponse> queued = expectations.get(new SimpleRequest(request.method(), request.getPath()));
    return queued != null && !queued.isEmpty();
  }

  // Shaped like a ServiceAccount token (three dot-separated parts), saying whose it is for people who
  // look at one; only the embedded API takes it.
  private String mint(String namespace, String account) {
    byte[] secret = new byte[24];
    random.nextBytes(secret);
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    return "embedded." + b64.encodeToString(("system:serviceaccount:" + namespace + ":" + account).getBytes(
        java.nio.charset.StandardCharsets.UTF_8)) + "." + b64.encodeToString(secret);
  }

  @Override
  public void shutdown() {
    store.shutdown();
  }

  @Override
  public void releaseResources() {
    store.releaseResources();
  }
}
