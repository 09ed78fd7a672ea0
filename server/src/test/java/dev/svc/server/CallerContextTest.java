package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.server.http.CallerAuthHandler;
import dev.svc.server.http.CallerAuthHandler.AuthorizedCaller;
import dev.svc.server.mesh.Caller;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.junit5.VertxExtension;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a route behind the auth layer finds on the routing context of an admitted request, and that it
 * never sees a request whose caller left while the mesh was answering who-is.
 */
@ExtendWith(VertxExtension.class)
class CallerContextTest {

  private static final String CAP = "svc.dev/cap/svc";

  @Test
  void an_admitted_request_carries_the_username_the_winning_rule_and_the_full_login_name(Vertx vertx) {
    JsonNode view = JsonNodeFactory.instance.objectNode().put("role", "view").put("period", "6h").put("priority", 5);
    JsonNode admin = JsonNodeFactory.instance.objectNode().put("role", "admin").put("period", "45m").put("priority", 30);
    Caller dana = new Caller("dana@corp.example", List.of(), Map.of(CAP, List.of(view, admin)));
    Router router = Router.router(vertx);
    router.route().handler(
        new CallerAuthHandler(new FakeMesh(dana), CAP, new SimpleMeterRegistry(), Optional.empty()));
    router.route().handler(ctx -> {
      AuthorizedCaller caller = ctx.get(CallerAuthHandler.CALLER);
      ctx.json(new JsonObject().put("username", caller.username()).put("role", caller.rule().role())
          .put("period", caller.rule().period()).put("login", caller.loginName()));
    });
    HttpServer server = await(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));

    JsonObject body = await(WebClient.create(vertx).get(server.actualPort(), "127.0.0.1", "/x").send()).bodyAsJsonObject();

    assertThat(body).isEqualTo(new JsonObject().put("username", "dana").put("role", "admin").put("period", "45m")
        .put("login", "dana@corp.example"));
    await(server.close());
  }

  @Test
  void a_caller_gone_before_its_who_is_answers_is_neither_served_nor_an_unhandled_error(Vertx vertx)
      throws Exception {
    List<Throwable> unhandled = new CopyOnWriteArrayList<>();
    vertx.exceptionHandler(unhandled::add);
    Promise<Caller> lookup = Promise.promise();
    FakeMesh mesh = new FakeMesh(null);
    mesh.whoIs = lookup.future();
    CompletableFuture<Void> arrived = new CompletableFuture<>();
    AtomicInteger served = new AtomicInteger();
    AtomicInteger closed = new AtomicInteger();
    Router router = Router.router(vertx);
    router.route().handler(ctx -> {
      arrived.complete(null);
      ctx.next();
    });
    router.route().handler(new CallerAuthHandler(mesh, CAP, new SimpleMeterRegistry(), Optional.empty()))
        .handler(BodyHandler.create(false))
        .handler(ctx -> {
          served.incrementAndGet();
          ctx.response().end();
        });
    HttpServer server = await(vertx.createHttpServer()
        .connectionHandler(connection -> connection.closeHandler(nothing -> closed.incrementAndGet()))
        .requestHandler(router).listen(0, "127.0.0.1"));
    try (Socket socket = new Socket("127.0.0.1", server.actualPort())) {
      OutputStream out = socket.getOutputStream();
      out.write(("POST /x HTTP/1.1\r\nHost: svc\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      arrived.get();
    }
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> closed.get() == 1);
    JsonNode view = JsonNodeFactory.instance.objectNode().put("role", "view").put("period", "1h");
    // The auth layer goes on inside complete(), so once the task ends it has had its say.
    CompletableFuture<Void> answered = new CompletableFuture<>();
    vertx.runOnContext(nothing -> {
      lookup.complete(new Caller("dana@corp.example", List.of(), Map.of(CAP, List.of(view))));
      answered.complete(null);
    });
    answered.get();

    assertThat(served).hasValue(0);
    assertThat(unhandled).isEmpty();
    await(server.close());
  }
}
