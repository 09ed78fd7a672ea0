package dev.svc.server.mesh.tailnet;

import static dev.svc.server.mesh.tailnet.LocalApiClientTest.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.server.StartException;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.testkit.FakeTailscaled;
import dev.svc.server.testkit.FakeTailscaled.Fault;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.junit5.VertxExtension;
import java.math.BigInteger;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code mesh.port} 443: the listener serves the daemon's certificate, and a renewed one without a
 * restart. The tests bind a free port with the options the mesh gives for 443.
 */
@ExtendWith(VertxExtension.class)
class HttpsMeshTest {

  private static final String CERT_PATH = "/localapi/v0/cert/svc.tail-fake.ts.net";

  private Vertx vertx;
  private FakeTailscaled daemon;
  private TailnetMesh mesh;
  private HttpServer server;
  private HttpClient tls;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    daemon = await(FakeTailscaled.start(vertx)).running();
    SvcConfig.Mesh config = new SvcConfig.Mesh("svc", 443, "", "", "svc.dev/cap/svc", SvcConfig.MeshMode.EXTERNAL,
        daemon.socket().toString(), "tailscaled", "", true, new SvcConfig.DevCaller("dev@localhost", List.of()));
    mesh = new TailnetMesh(vertx, config, daemon.socket(),
        new LocalApiClient(vertx, daemon.socket(), new ObjectMapper(), Clock.systemUTC()), new NodeLogin("", false),
        null, new SimpleMeterRegistry()).withoutBindCheck();
    tls = vertx.createHttpClient(new HttpClientOptions().setSsl(true).setTrustAll(true).setVerifyHost(false)
        .setKeepAlive(false));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      await(server.close());
    }
    await(tls.close());
    await(mesh.close());
    await(daemon.close());
  }

  private void listen() {
    HttpServerOptions options = await(mesh.listenOptions(new HttpServerOptions())).get(0);
    assertThat(options.getPort()).isEqualTo(443);
    assertThat(options.isSsl()).isTrue();
    server = await(vertx.createHttpServer(options.setPort(0)).requestHandler(r -> r.response().end("ok")).listen());
    mesh.serving(server);
  }

  /** The start error of asking for the listeners' options. */
  private StartException startFailure() {
    Throwable failure = catchThrowable(() -> await(mesh.listenOptions(new HttpServerOptions())));
    assertThat(failure).isInstanceOf(StartException.class);
    return (StartException) failure;
  }

  /** The serial number of the certificate a new TLS connection gets. */
  private BigInteger servedSerial() {
    return await(tls.request(HttpMethod.GET, server.actualPort(), "127.0.0.1", "/")
        .compose(request -> request.send().compose(response -> {
          try {
            X509Certificate leaf = (X509Certificate) request.connection().peerCertificates().get(0);
            return response.body().map(body -> leaf.getSerialNumber());
          } catch (javax.net.ssl.SSLPeerUnverifiedException e) {
            throw new AssertionError(e);
          }
        })));
  }

  @Test
  void the_listener_serves_the_nodes_certificate_and_a_renewed_one_without_a_restart() {
    listen();
    BigInteger first = servedSerial();

    daemon.renewCertificate();
    await(mesh.refreshCertificate());

    assertThat(servedSerial()).isNotEqualTo(first);
    assertThat(daemon.requests(CERT_PATH)).allSatisfy(r -> assertThat(r.query()).startsWith("type=pair"));
  }

  @Test
  void a_failed_refresh_keeps_serving_the_current_certificate() {
    listen();
    BigInteger first = servedSerial();

    daemon.renewCertificate().failNext(CERT_PATH, Fault.ERROR_500);
    Throwable failure = catchThrowable(() -> await(mesh.refreshCertificate()));

    assertThat(failure).hasMessage("tailscaled refused cert (500): backend error: injected");
    assertThat(servedSerial()).isEqualTo(first);
  }

  @Test
  void a_refresh_comes_every_12_hours_or_when_a_third_of_the_lifetime_is_left_but_never_within_10_minutes() {
    java.time.Instant issued = java.time.Instant.parse("2026-11-01T00:00:00Z");
    java.time.Instant expires = issued.plus(Duration.ofDays(90)); // a third: 30 days
    assertThat(CertificateManager.refreshAfter(issued, issued, expires)).isEqualTo(Duration.ofHours(12));
    java.time.Instant thirdLeft = expires.minus(Duration.ofDays(30));
    assertThat(CertificateManager.refreshAfter(thirdLeft.minus(Duration.ofHours(1)), issued, expires))
        .isEqualTo(Duration.ofHours(1));
    assertThat(CertificateManager.refreshAfter(thirdLeft.plusSeconds(1), issued, expires))
        .isEqualTo(Duration.ofMinutes(10));
    assertThat(CertificateManager.refreshAfter(expires.plusSeconds(1), issued, expires))
        .isEqualTo(Duration.ofMinutes(10));
    // A certificate of 6 hours: refreshed when 2 hours are left, 4 hours after its issue.
    assertThat(CertificateManager.refreshAfter(issued, issued, issued.plus(Duration.ofHours(6))))
        .isEqualTo(Duration.ofHours(4));
  }

  @Test
  void a_certificate_expiring_within_a_day_is_renewed_by_the_daemon_first() {
    listen();

    assertThat(daemon.requests(CERT_PATH)).extracting(FakeTailscaled.Recorded::query)
        .containsExactly("type=pair", "type=pair&min_validity=86400s");
  }

  @Test
  void a_port_taken_by_another_process_is_a_start_error_with_help() throws Exception {
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      Throwable failure = catchThrowable(() -> TailnetMesh.checkBindable("127.0.0.1", taken.getLocalPort()));

      assertThat(failure).isInstanceOf(StartException.class)
          .hasMessageStartingWith("the API can't listen on 127.0.0.1:" + taken.getLocalPort() + ": ");
      assertThat(((StartException) failure).help()).startsWith("stop the process that listens there");
    }
  }

  @Test
  void a_port_this_user_may_not_bind_gets_the_ways_to_allow_it() {
    // The JDK's message for EACCES; the machines of the tests run as root, which may bind any port.
    assertThat(TailnetMesh.bindHelp(443, "Permission denied")).isEqualTo("allow binding port 443: set"
        + " net.ipv4.ip_unprivileged_port_start to 443 or less (a safe pod sysctl), or grant CAP_NET_BIND_SERVICE,"
        + " or set mesh.port to a port above 1023");
    assertThat(TailnetMesh.bindHelp(443, "Address already in use")).startsWith("stop the process that listens there");
  }

  @Test
  void a_read_only_daemon_gives_a_certificate_only_to_a_permitted_user() {
    daemon.readOnly();

    StartException failure = startFailure();

    assertThat(failure).hasMessage("no HTTPS certificate for svc.tail-fake.ts.net: tailscaled refused cert (403): cert access denied");
    assertThat(failure.help()).isEqualTo("check that this user may fetch certificates from"
        + " tailscaled (TS_PERMIT_CERT_UID) and the daemon's log");

    daemon.permitCertificates();

    assertThat(await(mesh.listenOptions(new HttpServerOptions())).get(0).isSsl()).isTrue();
  }

  @Test
  void a_tailnet_without_https_certificates_is_a_start_error() {
    daemon.disableHttpsCerts();

    StartException failure = startFailure();

    assertThat(failure).hasMessage("the tailnet issues no HTTPS certificate for svc.tail-fake.ts.net");
    assertThat(failure.help()).startsWith("enable MagicDNS and HTTPS certificates");
  }

  @Test
  void a_rate_limited_first_certificate_is_waited_for_as_long_as_retry_after_says() {
    daemon.retryAfter(1).failNext(CERT_PATH, Fault.RATE_LIMITED);
    long started = System.nanoTime();

    HttpServerOptions options = await(mesh.listenOptions(new HttpServerOptions())).get(0);

    assertThat(options.isSsl()).isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
    // Asked twice: refused, then issued after the wait.
    assertThat(daemon.requests(CERT_PATH)).filteredOn(r -> r.query().equals("type=pair")).hasSize(2);
  }

  @Test
  void a_first_certificate_the_daemon_refuses_otherwise_is_a_start_error_with_advice() {
    daemon.failNext(CERT_PATH, Fault.ERROR_500);

    StartException failure = startFailure();

    assertThat(failure).hasMessage("no HTTPS certificate for svc.tail-fake.ts.net: tailscaled refused cert (500): backend error: injected");
    assertThat(failure.help()).startsWith("check that this user may fetch certificates");
  }
}
