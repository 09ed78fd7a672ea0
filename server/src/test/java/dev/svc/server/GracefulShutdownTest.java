package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.engine.EvalOptions;
import dev.svc.server.engine.EnginePool;
import dev.svc.server.mesh.DevMesh;
import dev.svc.supervisor.Pool;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code svc serve} stopping with an evaluation in flight, on the server's real engines (access-server
 * spec §1.4): the evaluation is answered, new connections are refused meanwhile, and the pool closes
 * after the answer.
 */
@ExtendWith(VertxExtension.class)
class GracefulShutdownTest {

  private static final JsonObject EVAL = new JsonObject().put("input", PolicyApiTest.MEMBER_READS);

  /**
   * The server's engines, whose calls, once the gate is armed, wait at it on the engine thread until
   * the test opens it: an evaluation that takes as long as the test wants.
   */
  private static final class GatedEngines implements EnginePool {
    final EnginePool engines;
    final AtomicBoolean armed = new AtomicBoolean();
    final CountDownLatch arrived = new CountDownLatch(1);
    final CountDownLatch open = new CountDownLatch(1);
    volatile Pool pool;

    GatedEngines(EnginePool engines) {
      this.engines = engines;
    }

    @Override
    public <T> CompletionStage<T> submit(Function<Pool, T> operation) {
      return engines.submit(p -> {
        pool = p;
        if (armed.get()) {
          arrived.countDown();
          awaitOpen();
        }
        return operation.apply(p);
      });
    }

    private void awaitOpen() {
      try {
        assertThat(open.await(60, TimeUnit.SECONDS)).as("the test opens the gate").isTrue();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CompletionException(e);
      }
    }

    @Override
    public void close() {
      engines.close();
    }
  }

  @Test
  void an_evaluation_in_flight_is_answered_new_connections_are_refused_and_the_pool_closes_after(Vertx vertx)
      throws InterruptedException {
    WebClient client = WebClient.create(vertx);
    GatedEngines[] engines = new GatedEngines[1];
    SvcServer server = await(SvcServer.create(TestServers.config(), new DevMesh(TestServers.config().mesh()),
        registry -> engines[0] = new GatedEngines(TestServers.oneEngine(registry))).start());
    GatedEngines gated = engines[0];
    int port = server.apiPort();
    HttpResponse<Buffer> installed = TestServers.send(client, HttpMethod.PUT, port, "/api/v1/policies/access.main",
        PolicyApiTest.install(PolicyApiTest.file("kind.sigil"), PolicyApiTest.file("access/main.sigil")));
    assertThat(installed.statusCode()).isEqualTo(201);
    gated.armed.set(true);
    Future<HttpResponse<Buffer>> inFlight = client.post(port, "127.0.0.1", "/api/v1/policies/access.main/eval")
        .putHeader("Content-Type", "application/json").sendJsonObject(EVAL);
    assertThat(gated.arrived.await(60, TimeUnit.SECONDS)).as("the evaluation reached an engine thread").isTrue();

    Future<Void> stopped = server.stop();
    Throwable refused = TestServers.refusedConnection(vertx, port);
    assertThat(stopped.isComplete()).as("the stop waits for the evaluation in flight").isFalse();
    gated.open.countDown();

    HttpResponse<Buffer> answer = await(inFlight);
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.bodyAsJsonObject().getString("decision")).isEqualTo("allow");
    await(stopped);
    assertThat(refused).hasMessageContaining("Connection refused");
    assertThatThrownBy(() -> gated.pool.evaluateJson("access.main", EVAL.getJsonObject("input").getMap(),
        EvalOptions.defaults()))
        .as("the pool is closed once the server stopped")
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the Pool is closed; create a new one");
  }
}
