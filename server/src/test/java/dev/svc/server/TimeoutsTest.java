package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.server.config.ConfigKey;
import dev.svc.server.http.HttpTimeouts;
import dev.svc.server.mesh.Caller;
import dev.svc.server.mesh.GrantRule;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpServerOptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The server.* timeouts on the API listener, each as HttpTimeouts maps it. */
class TimeoutsTest {

  private static final Map<ConfigKey, String> SHORT = Map.of(
      ConfigKey.SERVER_READ_TIMEOUT, "200ms",
      ConfigKey.SERVER_READ_HEADER_TIMEOUT, "200ms",
      ConfigKey.SERVER_WRITE_TIMEOUT, "200ms");

  private static FakeMesh granted() {
    return new FakeMesh(new Caller("dana@corp.example", List.of(),
        Map.of("svc.dev/cap/svc", List.of(new GrantRule("view", "1h", 0).toJson()))));
  }

  // Everything the server sends until it closes the connection.
  private static String untilClosed(Socket socket) throws IOException {
    socket.setSoTimeout(60_000);
    InputStream in = socket.getInputStream();
    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
  }

  @Test
  void a_body_that_stalls_past_the_read_timeout_gets_408_and_the_connection_closes() throws IOException {
    SvcServer server = await(SvcServer.create(TestServers.config(SHORT), granted(), TestServers::oneEngine).start());
    try (Socket socket = new Socket("127.0.0.1", server.apiPort())) {
      socket.getOutputStream().write(("POST /api/v1/format HTTP/1.1\r\nHost: svc\r\nContent-Type: application/json\r\n"
          + "Content-Length: 100\r\n\r\n{\"source\":").getBytes(StandardCharsets.UTF_8));

      String answer = untilClosed(socket);

      assertThat(answer).startsWith("HTTP/1.1 408 Request Timeout").contains("connection: close").endsWith(
          "{\"message\":\"the request wasn't read within server.readTimeout (0.2s)\","
              + "\"help\":\"send the whole request at once; a stalled upload is cut off\"}");
    } finally {
      await(server.stop());
    }
  }

  @Test
  void a_connection_that_sends_no_headers_within_the_read_header_timeout_is_closed() throws IOException {
    SvcServer server = await(SvcServer.create(TestServers.config(SHORT), granted(), TestServers::oneEngine).start());
    try (Socket socket = new Socket("127.0.0.1", server.apiPort())) {
      socket.getOutputStream().write("POST /api/v1/format HTTP/1.1\r\nHost: svc\r\n".getBytes(StandardCharsets.UTF_8));

      assertThat(untilClosed(socket)).isEmpty();
    } finally {
      await(server.stop());
    }
  }

  @Test
  void a_kept_alive_connection_trickling_its_next_requests_headers_is_closed_at_the_read_header_timeout()
      throws IOException {
    SvcServer server = await(SvcServer.create(TestServers.config(SHORT), granted(), TestServers::oneEngine).start());
    try (Socket socket = new Socket("127.0.0.1", server.apiPort())) {
      socket.setSoTimeout(60_000);
      socket.getOutputStream()
          .write("GET /api/v1/policies HTTP/1.1\r\nHost: svc\r\n\r\n".getBytes(StandardCharsets.UTF_8));
      assertThat(TestServers.oneAnswer(socket)).startsWith("HTTP/1.1 200 OK").endsWith("{\"policies\":[]}");

      socket.getOutputStream().write("GET /api/v1/policies HTTP/1.1\r\nHo".getBytes(StandardCharsets.UTF_8));

      assertThat(untilClosed(socket)).isEmpty();
    } finally {
      await(server.stop());
    }
  }

  // Sends `request` whole, as its last request on the connection, and reads the answer.
  private static String exchange(SvcServer server, String request) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.apiPort())) {
      socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
      return untilClosed(socket);
    }
  }

  @Test
  void an_answer_not_ready_within_the_write_timeout_is_503() throws IOException {
    HeldEngines engines = new HeldEngines();
    SvcServer server = await(SvcServer.create(TestServers.config(SHORT), granted(), registry -> engines).start());
    try {
      String body = "{\"source\": \"policy a.b: K@1\\n\"}";
      String answer = exchange(server, "POST /api/v1/format HTTP/1.1\r\nHost: svc\r\nConnection: close\r\n"
          + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);

      assertThat(answer).startsWith("HTTP/1.1 503 Service Unavailable").contains("Retry-After: 1").endsWith(
          "{\"message\":\"the answer wasn't ready within server.writeTimeout (0.2s)\","
              + "\"help\":\"try again later, or with a smaller request\"}");
      engines.release();
    } finally {
      await(server.stop());
    }
  }

  @Test
  void an_install_answered_503_at_the_write_timeout_is_never_installed() throws IOException {
    HeldEngines engines = new HeldEngines();
    SvcServer server = await(SvcServer.create(TestServers.config(SHORT), granted(), registry -> engines).start());
    try {
      byte[] body = PolicyApiTest.install(PolicyApiTest.file("kind.sigil"), PolicyApiTest.file("access/main.sigil"))
          .encode().getBytes(StandardCharsets.UTF_8);
      String answer = exchange(server, "PUT /api/v1/policies/late HTTP/1.1\r\nHost: svc\r\nConnection: close\r\n"
          + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n"
          + new String(body, StandardCharsets.UTF_8));

      assertThat(answer).startsWith("HTTP/1.1 503 Service Unavailable").endsWith("{\"message\":\"the answer wasn't"
          + " ready within server.writeTimeout (0.2s), so nothing was installed under `late`\","
          + "\"help\":\"nothing changed; try again later, or with fewer or smaller files\"}");
      engines.release();
      assertThat(exchange(server, "GET /api/v1/policies HTTP/1.1\r\nHost: svc\r\nConnection: close\r\n\r\n"))
          .as("the install that ran after its 503 changed nothing").endsWith("{\"policies\":[]}");
    } finally {
      await(server.stop());
    }
  }

  @Test
  void an_install_that_serves_already_at_the_write_timeout_is_202_with_its_location() throws IOException {
    SecondInstanceHeld engines = new SecondInstanceHeld();
    // Long enough for the compile in the free instance; the copy into the held one can't finish.
    SvcServer server = await(SvcServer.create(TestServers.config(Map.of(ConfigKey.SERVER_WRITE_TIMEOUT, "5s")),
        granted(), registry -> engines).start());
    try {
      byte[] body = PolicyApiTest.install(PolicyApiTest.file("kind.sigil"), PolicyApiTest.file("access/main.sigil"))
          .encode().getBytes(StandardCharsets.UTF_8);
      String answer = exchange(server, "PUT /api/v1/policies/rolling HTTP/1.1\r\nHost: svc\r\nConnection: close\r\n"
          + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n"
          + new String(body, StandardCharsets.UTF_8));
      engines.release();

      assertThat(answer).startsWith("HTTP/1.1 202 Accepted").contains("location: /api/v1/policies/rolling")
          .endsWith("{\"name\":\"rolling\",\"policy\":\"access.main\",\"diagnostics\":[]}");
      assertThat(exchange(server, "GET /api/v1/policies HTTP/1.1\r\nHost: svc\r\nConnection: close\r\n\r\n"))
          .contains("{\"name\":\"rolling\",\"policy\":\"access.main\"");
    } finally {
      await(server.stop());
    }
  }

  @Test
  void the_write_timeouts_503_under_the_access_api_takes_its_error_shape() throws IOException {
    FakeMesh silent = granted();
    silent.whoIs = Promise.<Caller>promise().future();
    // The auth layer holds the request unread while it waits, so only the write timeout may fire.
    SvcServer server = await(SvcServer.create(TestServers.config(Map.of(ConfigKey.SERVER_WRITE_TIMEOUT, "200ms")),
        silent, TestServers::oneEngine).start());
    try {
      String answer =
          exchange(server, "GET /api/v1alpha1/cluster-info HTTP/1.1\r\nHost: svc\r\nConnection: close\r\n\r\n");

      assertThat(answer).startsWith("HTTP/1.1 503 Service Unavailable").endsWith(
          "{\"message\":\"the answer wasn't ready within server.writeTimeout (0.2s)\","
              + "\"advice\":[\"try again later, or with a smaller request\"]}");
    } finally {
      await(server.stop());
    }
  }

  @Test
  void the_idle_timeout_is_the_listeners_own_and_zero_turns_it_off() {
    HttpServerOptions idle = HttpTimeouts.apply(TestServers.config().server(), new HttpServerOptions());
    HttpServerOptions off = HttpTimeouts.apply(TestServers.config(Map.of(ConfigKey.SERVER_IDLE_TIMEOUT, "0")).server(),
        new HttpServerOptions());

    assertThat(idle.getIdleTimeout()).isEqualTo(120_000);
    assertThat(idle.getIdleTimeoutUnit()).isEqualTo(TimeUnit.MILLISECONDS);
    assertThat(off.getIdleTimeout()).isZero();
  }
}
