package dev.svc.bench;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import java.nio.charset.StandardCharsets;

/**
 * The ceiling {@code scripts/load} measures the server's eval route against ({@code scripts/load
 * --bare}): a Vert.x router on one event loop and Java NIO (a higher ceiling than the API's shape, a
 * loop per processor on native epoll, measured), whose eval route reads the body and
 * answers a fixed eval record of {@code access.main}, the size the engine writes for the load's
 * request, without the server's handlers or the engine. Run it with the server's JVM options.
 */
public final class BareRouter {

  /** access.main's record for a member who reads, as the server answers the load's request. */
  static final String RECORD =
      "{\"payload\":{\"audit\":false},\"policy\":\"access.main\",\"decision\":\"allow\",\"reason\":\"team_member\","
          + "\"outcome\":[{\"payload\":{\"audit\":false},\"decision\":\"allow\",\"reason\":\"team_member\","
          + "\"policy\":\"access.main\",\"position\":\"access/main.sigil:14:3\"}],\"trace\":[{\"payload\":"
          + "{\"audit\":false},\"decision\":\"allow\",\"reason\":\"team_member\",\"policy\":\"access.main\","
          + "\"position\":\"access/main.sigil:14:3\",\"conditions\":[\"member and action != delete\"],"
          + "\"outcome\":true}]}";

  private BareRouter() {}

  /**
   * Listens on 127.0.0.1 until the process is stopped.
   *
   * @param args the port
   */
  public static void main(String[] args) {
    int port = Integer.parseInt(args[0]);
    Buffer record = Buffer.buffer(RECORD.getBytes(StandardCharsets.UTF_8));
    Vertx vertx = Vertx.vertx();
    Router router = Router.router(vertx);
    router.post("/api/v1/policies/:name/eval")
        .handler(BodyHandler.create(false))
        .handler(ctx -> ctx.response()
            .putHeader(HttpHeaders.CONTENT_TYPE, "application/json; charset=utf-8")
            .end(record.copy()));
    vertx.createHttpServer().requestHandler(router).listen(port, "127.0.0.1")
        .toCompletionStage().toCompletableFuture().join();
    System.out.println("bare router: listening on 127.0.0.1:" + port);
  }
}
