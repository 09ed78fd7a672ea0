package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.server.http.CallerAuthHandler;
import dev.svc.server.http.CallerAuthHandler.AuthorizedCaller;
import dev.svc.server.mesh.Caller;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** What a route behind the auth layer finds on the routing context of an admitted request. */
@ExtendWith(VertxExtension.class)
class CallerContextTest {

  private static final String CAP = "svc.dev/cap/svc";

  @Test
  void an_admitted_request_carries_the_username_the_winning_rule_and_the_full_login_name(Vertx vertx) {
    JsonNode view = JsonNodeFactory.instance.objectNode().put("role", "view").put("period", "6h").put("priority", 5);
    JsonNode admin = JsonNodeFactory.instance.objectNode().put("role", "admin").put("period", "45m").put("priority", 30);
    Caller dana = new Caller("dana@corp.example", List.of(), Map.of(CAP, List.of(view, admin)));
    Router router = Router.router(vertx);
    router.route().handler(new CallerAuthHandler(new FakeMesh(dana), CAP, new SimpleMeterRegistry()));
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
}
