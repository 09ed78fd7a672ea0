package dev.svc.cli.access;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A scripted access server on a free loopback port: each route answers its queued responses in
 * order, repeating the last; every request is recorded. A route without a script answers 404.
 */
final class StubServer implements AutoCloseable {

  /** One scripted answer. */
  record Answer(int status, Map<String, String> headers, String body) {
    static Answer of(int status, String body) {
      return new Answer(status, Map.of(), body);
    }

    Answer retryAfter(int seconds) {
      Map<String, String> with = new HashMap<>(headers);
      with.put("Retry-After", Integer.toString(seconds));
      return new Answer(status, with, body);
    }
  }

  static final String SESSION = "{\"username\":\"dana\",\"role\":\"admin\",\"until\":\"2025-03-04T10:00:00Z\"}";
  static final String NOT_SIGNED_IN =
      "{\"message\":\"User not signed in\",\"advice\":[\"run 'svc login' first\"],"
          + "\"cause\":{\"message\":\"svcsignins.access.svc.dev \\\"svc-user-dana\\\" not found\"}}";
  static final String KUBECONFIG = """
      apiVersion: v1
      kind: Config
      preferences: {}
      clusters:
      - name: svc-cluster
        cluster:
          server: https://k8s-api.corp.example:6443
          insecure-skip-tls-verify: true
      users:
      - name: svc-user-dana
        user:
          token: token-1
      contexts:
      - name: svc-context-dana
        context:
          cluster: svc-cluster
          user: svc-user-dana
      current-context: svc-context-dana
      """;

  private final HttpServer server;
  private final Map<String, Deque<Answer>> scripts = new HashMap<>();
  private final List<String> requests = new ArrayList<>();
  private final CountDownLatch hold = new CountDownLatch(1);

  StubServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      String route = exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
      Answer answer;
      synchronized (this) {
        requests.add(route + " Accept=" + exchange.getRequestHeaders().getFirst("Accept"));
        Deque<Answer> script = scripts.get(route);
        answer = script == null ? Answer.of(404, "{\"message\":\"Not found\"}")
            : script.size() > 1 ? script.poll() : script.peek();
      }
      if (answer.status() == 0) {
        awaitRelease();
        exchange.close();
        return;
      }
      byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
      answer.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
      exchange.sendResponseHeaders(answer.status(), body.length == 0 ? -1 : body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    server.start();
  }

  /** Scripts a route, such as {@code GET /api/v1alpha1/kubeconfig}; status 0 never answers. */
  synchronized StubServer on(String method, String route, Answer... answers) {
    scripts.put(method + " /api/v1alpha1" + route, new ArrayDeque<>(List.of(answers)));
    return this;
  }

  synchronized List<String> requests() {
    return List.copyOf(requests);
  }

  int port() {
    return server.getAddress().getPort();
  }

  private void awaitRelease() {
    try {
      hold.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    hold.countDown();
    server.stop(0);
  }
}
