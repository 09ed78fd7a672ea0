package dev.svc.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.server.mesh.Caller;
import dev.svc.server.mesh.Mesh;
import dev.svc.server.mesh.MeshStatus;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The auth layer over a real connection whose caller leaves while the mesh is still answering who-is. */
class CallerAuthHandlerConnectionTest {

  private static final String CAP = "svc.dev/cap/svc";

  private final Vertx vertx = Vertx.vertx();
  private final List<Throwable> unhandled = new CopyOnWriteArrayList<>();
  private final CompletableFuture<Promise<Caller>> lookup = new CompletableFuture<>();

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get();
  }

  /** A mesh whose one who-is answer the test gives when it chooses. */
  private final class HeldMesh implements Mesh {
    @Override
    public Future<HttpServerOptions> listenOptions(HttpServerOptions base) {
      return Future.succeededFuture(base);
    }

    @Override
    public String url(int port) {
      return "http://127.0.0.1:" + port;
    }

    @Override
    public Future<Caller> whoIs(SocketAddress peer) {
      Promise<Caller> promise = Promise.promise();
      lookup.complete(promise);
      return promise.future();
    }

    @Override
    public MeshStatus status() {
      throw new UnsupportedOperationException("not asked by the auth layer");
    }

    @Override
    public Future<Void> close() {
      return Future.succeededFuture();
    }
  }

  @Test
  void a_caller_gone_before_its_who_is_answers_is_neither_served_nor_an_unhandled_error() throws Exception {
    vertx.exceptionHandler(unhandled::add);
    AtomicInteger served = new AtomicInteger();
    AtomicInteger closed = new AtomicInteger();
    Router router = Router.router(vertx);
    router.route().handler(new CallerAuthHandler(new HeldMesh(), CAP, new SimpleMeterRegistry()))
        .handler(BodyHandler.create(false))
        .handler(ctx -> {
          served.incrementAndGet();
          ctx.response().end();
        });
    HttpServer server = vertx.createHttpServer()
        .connectionHandler(connection -> connection.closeHandler(nothing -> closed.incrementAndGet()))
        .requestHandler(router).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get();
    try (Socket socket = new Socket("127.0.0.1", server.actualPort())) {
      OutputStream out = socket.getOutputStream();
      out.write(("POST /x HTTP/1.1\r\nHost: svc\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      Promise<Caller> answer = lookup.get();
      socket.close();
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> closed.get() == 1);
      Map<String, List<JsonNode>> grants =
          Map.of(CAP, List.of(new ObjectMapper().readTree("{\"role\": \"view\", \"period\": \"1h\"}")));
      // The auth layer goes on inside complete(), so once the task ends it has had its say.
      CompletableFuture<Void> answered = new CompletableFuture<>();
      vertx.runOnContext(nothing -> {
        answer.complete(new Caller("dana@corp.example", List.of(), grants));
        answered.complete(null);
      });
      answered.get();
    }

    assertThat(served).hasValue(0);
    assertThat(unhandled).isEmpty();
  }
}
