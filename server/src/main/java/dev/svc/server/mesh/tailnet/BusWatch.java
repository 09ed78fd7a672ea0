package dev.svc.server.mesh.tailnet;

import io.vertx.core.Future;
import io.vertx.core.http.HttpConnection;

/**
 * An open watch of the daemon's IPN bus: a stream of {@link BusNotification}s on a connection of its
 * own, without a deadline.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class BusWatch {

  private final HttpConnection connection;
  private final Future<Void> ended;
  private volatile boolean closing;

  BusWatch(HttpConnection connection, Future<Void> ended) {
    this.connection = connection;
    this.ended = ended;
  }

  /** True once {@link #close()} was called: the stream's end is then no failure. */
  boolean closing() {
    return closing;
  }

  /**
   * Completes when the stream ends: succeeded after {@link #close()}, failed when the daemon ended
   * it (it stopped, or sent a line this client can't read).
   *
   * @return the end of the stream
   */
  public Future<Void> ended() {
    return ended;
  }

  /**
   * Ends the watch and closes its connection.
   *
   * @return completes when the connection is closed
   */
  public Future<Void> close() {
    closing = true;
    return connection.close();
  }
}
