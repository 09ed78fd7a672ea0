package dev.svc.server.mesh.tailnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.svc.server.mesh.Caller;
import dev.svc.server.testkit.FakeTailscaled;
import dev.svc.server.testkit.FakeTailscaled.Fault;
import dev.svc.server.testkit.FakeTailscaled.KeyOutcome;
import dev.svc.server.testkit.FakeTailscaled.Recorded;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The production client against the faithful fake, over a real unix socket. */
@ExtendWith(VertxExtension.class)
class LocalApiClientTest {

  private static final String CAP = "svc.dev/cap/svc";

  private FakeTailscaled daemon;
  private LocalApiClient client;

  @BeforeEach
  void start(Vertx vertx) {
    daemon = await(FakeTailscaled.start(vertx));
    client = new LocalApiClient(vertx, daemon.socket(), new ObjectMapper(), Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    await(client.close());
    await(daemon.close());
  }

  static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (InterruptedException | TimeoutException e) {
      throw new AssertionError(e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new AssertionError(e.getCause());
    }
  }

  private static LocalApiException failure(Future<?> future) {
    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> await(future));
    assertThat(thrown).isInstanceOf(LocalApiException.class);
    return (LocalApiException) thrown;
  }

  @Test
  void every_call_names_the_daemons_host_and_sends_no_origin_or_referer() {
    await(client.status());
    await(client.prefs());

    assertThat(daemon.requests()).hasSize(2).allSatisfy(request -> {
      assertThat(request.headers().getAll("Host")).containsExactly("local-tailscaled.sock");
      assertThat(request.headers().contains("Origin")).isFalse();
      assertThat(request.headers().contains("Referer")).isFalse();
    });
    assertThat(daemon.requests().get(0).query()).isEqualTo("peers=false");
  }

  @Test
  void a_fresh_daemons_status_has_no_state_and_no_addresses() {
    NodeStatus status = await(client.status());

    assertThat(status).isEqualTo(new NodeStatus(BackendState.NO_STATE, "", false, false, FakeTailscaled.VERSION,
        List.of(), "", "svc", false, List.of()));
  }

  @Test
  void a_running_nodes_status_names_it_without_the_trailing_dot() {
    daemon.running();

    NodeStatus status = await(client.status());

    assertThat(status.state()).isEqualTo(BackendState.RUNNING);
    assertThat(status.dnsName()).isEqualTo("svc.tail-fake.ts.net");
    assertThat(status.addresses()).containsExactly(FakeTailscaled.NODE_IP, "fd7a:115c:a1e0::5801:c22");
    assertThat(status.certDomains()).containsExactly("svc.tail-fake.ts.net");
    assertThat(status.magicDnsEnabled()).isTrue();
  }

  @Test
  void who_is_of_a_mapped_loopback_connection_is_the_peer_with_its_raw_grants() {
    daemon.peer("100.101.1.2", "alice@corp.example", List.of(),
            "{\"" + CAP + "\":[{\"role\":\"admin\",\"period\":\"45m\",\"priority\":30},null,\"x\"],\"other/cap\":null}")
        .mapLoopback("127.0.0.1:40001", "100.101.1.2");

    Caller caller = await(client.whoIs("127.0.0.1:40001"));

    assertThat(caller.loginName()).isEqualTo("alice@corp.example");
    assertThat(caller.tags()).isEmpty();
    assertThat(caller.grants(CAP)).containsExactly(
        JsonNodeFactory.instance.objectNode().put("role", "admin").put("period", "45m").put("priority", 30),
        NullNode.getInstance(), JsonNodeFactory.instance.textNode("x"));
    assertThat(daemon.requests("/localapi/v0/whois").get(0).query()).isEqualTo("addr=127.0.0.1%3A40001");
  }

  @Test
  void who_is_addresses_are_encoded_as_url_encoder_does() {
    for (String address : List.of("127.0.0.1:40001", "[fd7a:115c:a1e0::1:102]:51234", "[fe80::1%eth0]:80",
        "a b&c=d", "ünï:1", "")) {
      assertThat(LocalApiClient.queryValue(address)).as(address)
          .isEqualTo(URLEncoder.encode(address, StandardCharsets.UTF_8));
    }
  }

  @Test
  void who_is_of_a_tailnet_address_matches_by_ip_alone_and_keeps_tags() {
    daemon.peer("fd7a:115c:a1e0::9", "tagged-devices", List.of("tag:ci"), "null");

    Caller caller = await(client.whoIs("[fd7a:115c:a1e0::9]:51234"));

    assertThat(caller.tags()).containsExactly("tag:ci");
    assertThat(caller.capabilities()).isEmpty();
  }

  @Test
  void who_is_of_an_unknown_address_fails_with_the_daemons_404() {
    LocalApiException failure = failure(client.whoIs("127.0.0.1:40002"));

    assertThat(failure.status()).isEqualTo(404);
    assertThat(failure).hasMessage("tailscaled refused whois (404): no match for IP:port");
  }

  @Test
  void a_cap_map_value_that_is_not_a_list_makes_the_answer_unreadable() {
    daemon.peer("100.101.1.3", "bob@corp.example", List.of(), "{\"" + CAP + "\":{\"role\":\"admin\"}}");

    LocalApiException failure = failure(client.whoIs("100.101.1.3:1"));

    assertThat(failure.status()).isEqualTo(LocalApiException.NO_ANSWER);
    assertThat(failure).hasMessage("tailscaled's whois answer is unreadable: `CapMap` value of `" + CAP
        + "` is not a list");
  }

  @Test
  void malformed_json_a_body_cut_short_and_a_500_are_failures_not_crashes() {
    daemon.peer("100.101.1.2", "alice@corp.example", List.of(), "null");

    daemon.failNext("/localapi/v0/whois", Fault.MALFORMED_JSON);
    assertThat(failure(client.whoIs("100.101.1.2:1")).getMessage())
        .startsWith("tailscaled's whois answer is unreadable: ");
    daemon.failNext("/localapi/v0/whois", Fault.CLOSE_MID_BODY);
    assertThat(failure(client.whoIs("100.101.1.2:1")).getMessage()).startsWith("tailscaled didn't answer whois: ");
    daemon.failNext("/localapi/v0/whois", Fault.ERROR_500);
    assertThat(failure(client.whoIs("100.101.1.2:1"))).hasMessage(
        "tailscaled refused whois (500): backend error: injected");

    assertThat(await(client.whoIs("100.101.1.2:1")).loginName()).isEqualTo("alice@corp.example");
  }

  /** A client whose calls end after a second (a certificate's after CERT_TIMEOUT): no test waits 10 s. */
  private LocalApiClient impatient(Vertx vertx) {
    return new LocalApiClient(vertx, daemon.socket(), new ObjectMapper(), Clock.systemUTC(), Duration.ofSeconds(1));
  }

  @Test
  void a_held_call_ends_at_its_deadline(Vertx vertx) {
    LocalApiClient impatient = impatient(vertx);
    daemon.failNext("/localapi/v0/status", Fault.HOLD);
    try {
      assertThat(failure(impatient.status())).hasMessage("tailscaled didn't answer status in time");
      assertThat(await(impatient.status()).state()).isEqualTo(BackendState.NO_STATE);
    } finally {
      await(impatient.close());
    }
  }

  @Test
  void a_certificate_call_outlasts_the_deadline_of_the_other_calls(Vertx vertx) {
    LocalApiClient impatient = impatient(vertx);
    daemon.failNext("/localapi/v0/cert/svc.tail-fake.ts.net", Fault.HOLD);
    try {
      Future<CertPair> held = impatient.certPair("svc.tail-fake.ts.net", Optional.empty());

      // A first certificate takes an ACME exchange: its deadline is CERT_TIMEOUT, not the calls' second.
      Awaitility.await().during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(5)).until(() -> !held.isComplete());
    } finally {
      await(impatient.close());
    }
  }

  @Test
  void a_rate_limit_carries_its_retry_after() {
    daemon.failNext("/localapi/v0/status", Fault.RATE_LIMITED);

    LocalApiException failure = failure(client.status());

    assertThat(failure.status()).isEqualTo(429);
    assertThat(failure.retryAfter()).contains(Duration.ofSeconds(7));
  }

  @Test
  void start_with_a_valid_key_runs_the_node_and_sends_the_key_once_in_the_start_body() {
    daemon.key("tskey-auth-good", KeyOutcome.VALID);
    List<BusNotification> lines = new CopyOnWriteArrayList<>();
    await(client.watchBus(2, lines::add));

    await(client.start(JsonNodeFactory.instance.objectNode().put("Hostname", "svc").put("WantRunning", true),
        "tskey-auth-good"));

    Awaitility.await().until(() -> lines.size() == 4);
    assertThat(lines.stream().map(BusNotification::state).toList()).containsExactly(
        Optional.of(BackendState.NO_STATE), Optional.of(BackendState.NEEDS_LOGIN),
        Optional.of(BackendState.STARTING), Optional.of(BackendState.RUNNING));
    List<Recorded> withKey = daemon.requests().stream().filter(r -> r.body().contains("tskey-auth-good")).toList();
    assertThat(withKey).hasSize(1);
    assertThat(withKey.get(0).path()).isEqualTo("/localapi/v0/start");
  }

  @Test
  void a_rejected_key_is_reported_on_the_bus_only() {
    daemon.key("tskey-auth-bad", KeyOutcome.REJECTED);
    List<BusNotification> lines = new CopyOnWriteArrayList<>();
    await(client.watchBus(2, lines::add));

    await(client.start(JsonNodeFactory.instance.objectNode(), "tskey-auth-bad"));

    Awaitility.await().until(() -> lines.stream().anyMatch(line -> line.errMessage().isPresent()));
    assertThat(lines.get(lines.size() - 1).errMessage()).contains("invalid key: unable to validate API key");
    assertThat(await(client.status()).state()).isEqualTo(BackendState.NEEDS_LOGIN);
  }

  @Test
  void an_interactive_login_without_a_key_gives_a_login_url() {
    List<BusNotification> lines = new CopyOnWriteArrayList<>();
    await(client.watchBus(2, lines::add));
    await(client.start(JsonNodeFactory.instance.objectNode(), ""));

    await(client.loginInteractive());

    Awaitility.await().until(() -> lines.stream().anyMatch(line -> line.browseToUrl().isPresent()));
    assertThat(await(client.status()).authUrl()).isEqualTo("https://login.example.test/a/1");
  }

  @Test
  void a_read_only_daemon_refuses_writes_with_its_message() {
    daemon.readOnly();

    assertThat(failure(client.start(JsonNodeFactory.instance.objectNode(), ""))).hasMessage(
        "tailscaled refused start (403): access denied");
    assertThat(failure(client.loginInteractive())).hasMessage(
        "tailscaled refused login-interactive (403): login access denied");
  }

  @Test
  void the_bus_stream_ending_fails_the_watch() {
    BusWatch watch = await(client.watchBus(2, line -> { }));

    await(daemon.endBusStreams());

    assertThat(failure(watch.ended()).getMessage()).startsWith("tailscaled ended the IPN bus stream");
  }

  @Test
  void a_bus_line_that_is_not_a_notification_fails_the_watch_and_the_client_goes_on() {
    for (String bad : List.of("{\"State\": ", "[1, 2]", "{\"State\": \"Running\"}")) {
      List<BusNotification> lines = new CopyOnWriteArrayList<>();
      BusWatch watch = await(client.watchBus(2, lines::add));
      Awaitility.await().until(() -> !lines.isEmpty());

      daemon.busLine(bad);

      assertThat(failure(watch.ended()).getMessage()).as(bad).startsWith("tailscaled's watch-ipn-bus answer is unreadable");
      assertThat(lines).as(bad).hasSize(1);
    }
    assertThat(await(client.status()).state()).isEqualTo(BackendState.NO_STATE);
  }

  @Test
  void closing_a_watch_ends_it_without_failure() {
    BusWatch watch = await(client.watchBus(2, line -> { }));

    await(watch.close());

    assertThat(await(watch.ended())).isNull();
  }

  @Test
  void serve_config_is_null_with_a_tag_and_refused_before_running_with_the_json_error() {
    ServeConfig config = await(client.serveConfig());

    assertThat(config.config().isNull()).isTrue();
    assertThat(config.etag()).hasSize(64);
    assertThat(failure(client.setServeConfig(JsonNodeFactory.instance.objectNode(), config.etag()))).hasMessage(
        "tailscaled refused serve-config (500): updating config: netMap is nil");
  }

  @Test
  void await_status_retries_until_the_socket_answers(Vertx vertx) throws Exception {
    java.nio.file.Path later = java.nio.file.Files.createTempDirectory("late").resolve("s.sock");
    LocalApiClient waiting = new LocalApiClient(vertx, later, new ObjectMapper(), Clock.systemUTC());
    Future<NodeStatus> answered = waiting.awaitStatus(Duration.ofSeconds(20));
    Awaitility.await().until(() -> !answered.isComplete());

    FakeTailscaled late = await(FakeTailscaled.start(vertx, later));
    try {
      assertThat(await(answered).state()).isEqualTo(BackendState.NO_STATE);
    } finally {
      await(waiting.close());
      await(late.close());
    }
  }

  @Test
  void cert_pair_splits_key_and_chain() {
    assertThat(CertPair.split("-----BEGIN EC PRIVATE KEY-----\nk\n-----END EC PRIVATE KEY-----\n"
        + "-----BEGIN CERTIFICATE-----\nc\n-----END CERTIFICATE-----\n"))
        .isEqualTo(new CertPair("-----BEGIN EC PRIVATE KEY-----\nk\n-----END EC PRIVATE KEY-----\n",
            "-----BEGIN CERTIFICATE-----\nc\n-----END CERTIFICATE-----\n"));
    assertThatThrownBy(() -> CertPair.split("-----BEGIN CERTIFICATE-----\nc\n-----END CERTIFICATE-----\n"))
        .hasMessage("no private key in the certificate answer");
  }
}
