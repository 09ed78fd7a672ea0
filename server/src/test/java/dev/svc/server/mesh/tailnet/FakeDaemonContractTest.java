package dev.svc.server.mesh.tailnet;

import static dev.svc.server.mesh.tailnet.LocalApiClientTest.await;

import dev.svc.server.testkit.FakeTailscaled;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtendWith;

/** The local API contract against the fake daemon. */
@ExtendWith(VertxExtension.class)
class FakeDaemonContractTest extends LocalApiContract {

  private FakeTailscaled daemon;

  @Override
  protected Path startDaemon(Vertx vertx) {
    daemon = await(FakeTailscaled.start(vertx));
    return daemon.socket();
  }

  @Override
  protected void stopDaemon() {
    await(daemon.close());
  }
}
