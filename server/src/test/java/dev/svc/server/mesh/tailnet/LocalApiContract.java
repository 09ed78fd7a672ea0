package dev.svc.server.mesh.tailnet;

import static dev.svc.server.mesh.tailnet.LocalApiClientTest.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.server.mesh.Caller;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the production client relies on from a logged-out daemon (notes/tailnet.md §4.6), run against
 * the fake and, when {@code SVC_TEST_TAILSCALED} names a binary, against a real tailscaled: the fake
 * stays honest only as long as both pass the same tests.
 */
abstract class LocalApiContract {

  protected Vertx vertx;
  private LocalApiClient client;
  private HttpClient raw;
  private SocketAddress rawSocket;

  /** The socket of the daemon under test, started for each test. */
  protected abstract Path startDaemon(Vertx vertx) throws Exception;

  /** Stops the daemon under test. */
  protected abstract void stopDaemon() throws Exception;

  @BeforeEach
  void connect(Vertx vertx) throws Exception {
    this.vertx = vertx;
    Path socket = startDaemon(vertx);
    client = new LocalApiClient(vertx, socket, new ObjectMapper(), Clock.systemUTC());
    await(client.awaitStatus(LocalApiClient.CALL_TIMEOUT));
    raw = vertx.createHttpClient();
    rawSocket = SocketAddress.domainSocketAddress(socket.toString());
  }

  @AfterEach
  void disconnect() throws Exception {
    await(client.close());
    await(raw.close());
    stopDaemon();
  }

  private record RawAnswer(int status, String body) {}

  private RawAnswer rawGet(String path, String header, String value) {
    RequestOptions options = new RequestOptions().setServer(rawSocket).setMethod(HttpMethod.GET)
        .setHost("local-tailscaled.sock").setPort(80).setURI(path);
    if (header != null) {
      options.putHeader(header, value);
    }
    return await(raw.request(options).compose(request -> request.send()
        .compose(response -> response.body().map(body -> new RawAnswer(response.statusCode(), body.toString())))));
  }

  @Test
  void a_wrong_host_is_403_invalid_localapi_request() {
    assertThat(rawGet("/localapi/v0/status", "Host", "local-tailscaled.sock:80"))
        .isEqualTo(new RawAnswer(403, "invalid localapi request\n"));
  }

  @Test
  void an_origin_or_referer_is_403_invalid_localapi_request() {
    assertThat(rawGet("/localapi/v0/status", "Origin", "http://evil.example"))
        .isEqualTo(new RawAnswer(403, "invalid localapi request\n"));
    assertThat(rawGet("/localapi/v0/status", "Referer", "http://evil.example/"))
        .isEqualTo(new RawAnswer(403, "invalid localapi request\n"));
  }

  @Test
  void an_unknown_path_is_404_page_not_found() {
    assertThat(rawGet("/localapi/v0/no-such-endpoint", null, null)).isEqualTo(new RawAnswer(404, "404 page not found\n"));
  }

  @Test
  void a_logged_out_status_reads_with_userspace_networking_and_no_addresses() {
    NodeStatus status = await(client.status());

    assertThat(status.state()).isIn(BackendState.NO_STATE, BackendState.NEEDS_LOGIN, BackendState.STOPPED);
    assertThat(status.tun()).isFalse();
    assertThat(status.addresses()).isEmpty();
    assertThat(status.version()).isNotEmpty();
  }

  @Test
  void who_is_of_an_unknown_address_is_404_and_of_a_bad_one_400() {
    assertThat(((LocalApiException) catchThrowable(() -> await(client.whoIs("127.0.0.1:1")))).status()).isEqualTo(404);
    assertThat(((LocalApiException) catchThrowable(() -> await(client.whoIs("not an address")))))
        .hasMessage("tailscaled refused whois (400): invalid 'addr' parameter");
  }

  @Test
  void who_is_calls_of_one_turn_pipelined_on_one_connection_each_get_their_own_answer() {
    Promise<List<Future<Caller>>> started = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> started.complete(List.of(client.whoIs("127.0.0.1:1"),
        client.whoIs("not an address"), client.whoIs("127.0.0.1:2"))));
    List<Future<Caller>> calls = await(started.future());

    assertThat(calls).extracting(call -> ((LocalApiException) catchThrowable(() -> await(call))).status())
        .containsExactly(404, 400, 404);
  }

  @Test
  void prefs_are_an_object() {
    assertThat(await(client.prefs()).isObject()).isTrue();
  }

  @Test
  void the_first_bus_line_carries_the_state() {
    List<BusNotification> lines = new CopyOnWriteArrayList<>();
    BusWatch watch = await(client.watchBus(2, lines::add));
    try {
      Awaitility.await().until(() -> !lines.isEmpty());
      assertThat(lines.get(0).state()).isPresent();
    } finally {
      await(watch.close());
    }
  }

  @Test
  void a_certificate_without_a_netmap_is_500() {
    LocalApiException failure = (LocalApiException) catchThrowable(() ->
        await(client.certPair("svc.tail-fake.ts.net", Optional.empty())));

    assertThat(failure.status()).isEqualTo(500);
    assertThat(failure).hasMessage("tailscaled refused cert (500): no netmap available");
  }

  @Test
  void start_and_an_interactive_login_are_accepted_with_no_control_server_to_reach() throws IOException {
    int closed;
    try (ServerSocket probe = new ServerSocket(0)) {
      closed = probe.getLocalPort();
    }
    // A control server that can't be reached: the daemon accepts both and never logs in.
    ObjectNode prefs = new ObjectMapper().createObjectNode()
        .put("ControlURL", "http://127.0.0.1:" + closed).put("WantRunning", true);

    await(client.start(prefs, ""));
    await(client.loginInteractive());

    assertThat(await(client.status()).state()).isNotEqualTo(BackendState.RUNNING);
  }

  @Test
  void an_empty_serve_config_is_null_with_an_etag() {
    ServeConfig config = await(client.serveConfig());

    assertThat(config.config().isNull()).isTrue();
    assertThat(config.etag()).isNotEmpty();
  }
}
