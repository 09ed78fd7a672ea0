package dev.svc.server.mesh.tailnet;

import dev.svc.server.StartException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.ServerSSLOptions;
import java.io.ByteArrayInputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The node's HTTPS certificate for {@code mesh.port} 443 (notes/tailnet.md §3.4): issued by the
 * daemon for the node's DNS name, refreshed every {@link #REFRESH} and whenever less than a third of
 * its lifetime is left, and applied to the running listener without a restart. A certificate that
 * would still expire within {@link #MIN_VALIDITY} is asked for again with {@code min_validity}, which
 * makes the daemon renew it first. A failed refresh keeps the current pair and tries again: after the
 * daemon's {@code Retry-After} when it gave one, else after {@link #RETRY}. A rate limit on the first
 * certificate is waited out the same way, with the API not yet listening.
 *
 * <p><b>Thread safety:</b> thread-safe; refreshes run one at a time on Vert.x timers.
 */
public final class CertificateManager {

  /** The longest time between two refreshes. */
  public static final Duration REFRESH = Duration.ofHours(12);
  /** The validity below which the daemon is asked to renew before answering. */
  public static final Duration MIN_VALIDITY = Duration.ofHours(24);
  /** The wait after a failed refresh without {@code Retry-After}. */
  public static final Duration RETRY = Duration.ofMinutes(10);

  private static final Logger LOG = System.getLogger(CertificateManager.class.getName());

  private final Vertx vertx;
  private final LocalApiClient client;
  private final Clock clock;
  private volatile String domain;
  private volatile CertPair current;
  // The API's listeners, one per event loop, sharing the port: each gets every new pair.
  private final List<HttpServer> servers = new CopyOnWriteArrayList<>();
  private volatile long timer = -1;
  private volatile boolean closed;

  CertificateManager(Vertx vertx, LocalApiClient client, Clock clock) {
    this.vertx = vertx;
    this.client = client;
    this.clock = clock;
  }

  /**
   * The first certificate of {@code node}, before the listener binds.
   *
   * @param node the running node
   * @return the key and chain; fails with a {@link StartException} when the tailnet issues none
   */
  Future<PemKeyCertOptions> first(NodeStatus node) {
    if (!node.magicDnsEnabled() || !node.certDomains().contains(node.dnsName())) {
      return Future.failedFuture(new StartException("the tailnet issues no HTTPS certificate for " + node.dnsName(),
          "enable MagicDNS and HTTPS certificates in the tailnet's DNS settings, or set mesh.port to a plain "
              + "HTTP port such as 8080", null));
    }
    domain = node.dnsName();
    return firstPair().map(pair -> {
      current = pair;
      return pem(pair);
    });
  }

  /**
   * The first pair. A rate limit (429) is waited out, for as long as the daemon's {@code Retry-After}
   * says (else {@link #RETRY}), and asked again: a server that failed its start instead would be
   * restarted and ask again sooner, which only prolongs the limit. Any other failure fails the start.
   */
  private Future<CertPair> firstPair() {
    return fetch().recover(failure -> {
      if (failure instanceof LocalApiException limited && limited.status() == 429) {
        Duration wait = waitAfter(limited);
        LOG.log(Level.WARNING, "mesh: the certificate authority limits issuance for " + domain + " ("
            + failure.getMessage() + "); asking again in " + wait.toSeconds() + " s, the API listens once it issues one");
        Promise<CertPair> later = Promise.promise();
        vertx.setTimer(Math.max(1, wait.toMillis()), t -> {
          if (closed) {
            later.fail(new StartException("the server stopped while waiting for an HTTPS certificate for " + domain,
                "start it again to go on waiting, or use a plain HTTP mesh.port meanwhile", failure));
          } else {
            firstPair().onComplete(later);
          }
        });
        return later.future();
      }
      return Future.failedFuture(new StartException("no HTTPS certificate for " + domain + ": " + failure.getMessage(),
          "check that this user may fetch certificates from tailscaled (TS_PERMIT_CERT_UID) and the daemon's log",
          failure));
    });
  }

  /**
   * Applies the refreshes to the listener {@code listening}, which serves the first pair; the first
   * listener starts them.
   *
   * @param listening one of the API's listeners
   */
  synchronized void serving(HttpServer listening) {
    servers.add(listening);
    if (servers.size() == 1) {
      schedule(nextRefresh(current));
    }
  }

  /** Fetches the pair, and again with min_validity when it would expire within a day. */
  private Future<CertPair> fetch() {
    return client.certPair(domain, Optional.empty()).compose(pair -> {
      if (Duration.between(clock.instant(), notAfter(pair)).compareTo(MIN_VALIDITY) < 0) {
        return client.certPair(domain, Optional.of(MIN_VALIDITY));
      }
      return Future.succeededFuture(pair);
    });
  }

  /**
   * Refreshes now: fetches the pair and applies it when it changed.
   *
   * @return completes when the refresh ended; a failure keeps the current pair
   */
  Future<Void> refresh() {
    return fetch().compose(pair -> {
      if (pair.equals(current)) {
        return Future.succeededFuture(pair);
      }
      ServerSSLOptions renewed = new ServerSSLOptions().setKeyCertOptions(pem(pair));
      return Future.all(servers.stream().map(server -> server.updateSSLOptions(renewed)).toList()).map(updated -> {
        current = pair;
        LOG.log(Level.INFO, "mesh: HTTPS certificate of " + domain + " renewed, valid until " + notAfter(pair));
        return pair;
      });
    }).onComplete(done -> {
      if (done.succeeded()) {
        schedule(nextRefresh(done.result()));
      } else {
        Duration wait = waitAfter(done.cause());
        LOG.log(Level.WARNING, "mesh: HTTPS certificate refresh failed, serving the current one and trying again in "
            + wait.toSeconds() + " s: " + done.cause().getMessage());
        schedule(wait);
      }
    }).mapEmpty();
  }

  /** How long to wait before asking again after {@code failure}: the daemon's Retry-After, else {@link #RETRY}. */
  private static Duration waitAfter(Throwable failure) {
    return failure instanceof LocalApiException refused ? refused.retryAfter().orElse(RETRY) : RETRY;
  }

  private Duration nextRefresh(CertPair pair) {
    X509Certificate leaf = leaf(pair);
    return refreshAfter(clock.instant(), leaf.getNotBefore().toInstant(), leaf.getNotAfter().toInstant());
  }

  /**
   * When to refresh a certificate valid from {@code notBefore} to {@code notAfter}: after
   * {@link #REFRESH}, or when a third of its lifetime is left if that comes sooner, but never sooner
   * than {@link #RETRY}, so a certificate the daemon doesn't renew yet isn't asked for in a loop.
   */
  static Duration refreshAfter(Instant now, Instant notBefore, Instant notAfter) {
    Instant thirdLeft = notAfter.minus(Duration.between(notBefore, notAfter).dividedBy(3));
    Duration untilThird = Duration.between(now, thirdLeft);
    Duration next = untilThird.compareTo(REFRESH) < 0 ? untilThird : REFRESH;
    return next.compareTo(RETRY) < 0 ? RETRY : next;
  }

  private void schedule(Duration delay) {
    if (closed) {
      return;
    }
    timer = vertx.setTimer(Math.max(1, delay.toMillis()), t -> refresh());
  }

  /** Stops the refreshes. */
  void close() {
    closed = true;
    long pending = timer;
    if (pending >= 0) {
      vertx.cancelTimer(pending);
    }
  }

  private static PemKeyCertOptions pem(CertPair pair) {
    return new PemKeyCertOptions()
        .addKeyValue(Buffer.buffer(pair.keyPem(), StandardCharsets.UTF_8.name()))
        .addCertValue(Buffer.buffer(pair.chainPem(), StandardCharsets.UTF_8.name()));
  }

  private static Instant notAfter(CertPair pair) {
    return leaf(pair).getNotAfter().toInstant();
  }

  private static X509Certificate leaf(CertPair pair) {
    try {
      return (X509Certificate) CertificateFactory.getInstance("X.509")
          .generateCertificate(new ByteArrayInputStream(pair.chainPem().getBytes(StandardCharsets.US_ASCII)));
    } catch (CertificateException e) {
      throw new IllegalArgumentException("the daemon's certificate is unreadable: " + e.getMessage(), e);
    }
  }
}
