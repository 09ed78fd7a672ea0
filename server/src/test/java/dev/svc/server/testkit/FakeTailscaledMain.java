package dev.svc.server.testkit;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The fake daemon in a process of its own, so a measurement of the server counts only the server's
 * work: {@code FakeTailscaledMain SOCKET PEER_IP LOGIN CAPMAP_JSON} listens on {@code SOCKET} in
 * state Running, maps every loopback connection to the one peer, records no request, skips Vert.x's
 * checks of header characters, prints {@value #READY} once it
 * listens, and exits when its standard input ends (so it never outlives the process that started it).
 */
public final class FakeTailscaledMain {

  /** The line printed once the fake listens. */
  public static final String READY = "fake tailscaled ready";

  private FakeTailscaledMain() {}

  /**
   * Runs the fake until standard input ends.
   *
   * @param args the socket, the peer's IP, its login name and its {@code CapMap} as JSON
   * @throws IOException when standard input can't be read
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 4) {
      System.err.println("usage: FakeTailscaledMain SOCKET PEER_IP LOGIN CAPMAP_JSON");
      System.exit(2);
    }
    // Vert.x checks every header name and value the fake puts on an answer, and those of every request,
    // for characters HTTP forbids: its own answers never hold one, and the only client here is the
    // server under measurement, whose requests tests check elsewhere. The bytes on the wire are the
    // same without the checks; only the fake's CPU, which shares the cores with that server, is less.
    System.setProperty("vertx.disableHttpHeadersValidation", "true");
    // One event loop serves every connection, as a small daemon's few threads do: on 2 shared cores,
    // more loops only add wake-ups that compete with the server under measurement. Native epoll where
    // it loads, as the server prefers it (-Dio.netty.transport.noNative=true turns both to NIO).
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setPreferNativeTransport(true));
    FakeTailscaled.start(vertx, Path.of(args[0])).toCompletionStage().toCompletableFuture().join()
        .running().unrecorded().peer(args[1], args[2], List.of(), args[3]).everyLoopbackFrom(args[1]);
    System.out.println(READY);
    System.out.flush();
    while (System.in.read() >= 0) {
      // Waits for the end of standard input: the parent exited or closed it.
    }
    // No orderly close: it would wait for bus streams of servers that may still hold them open.
    System.exit(0);
  }
}
