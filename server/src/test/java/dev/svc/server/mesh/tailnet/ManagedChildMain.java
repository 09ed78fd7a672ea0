package dev.svc.server.mesh.tailnet;

import dev.svc.server.config.SvcConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.Map;

/**
 * A JVM that starts a managed tailscaled child and waits to be ended, for {@link ManagedMeshTest}'s
 * test that the child never outlives its JVM. Prints {@value #STARTED} once the child runs.
 *
 * <p>Arguments: the directory holding the stub {@code tailscaled}, and the state directory.
 */
public final class ManagedChildMain {

  /** The line printed once the child runs. */
  public static final String STARTED = "child started";

  private ManagedChildMain() {}

  public static void main(String[] args) throws InterruptedException {
    SvcConfig.Mesh config = ManagedMeshTest.managed(Path.of(args[1]), "tailscaled", true);
    TailscaledProcess child = TailscaledProcess.of(config, Map.of("PATH", args[0] + ":" + System.getenv("PATH")));
    Vertx vertx = Vertx.vertx();
    child.start(vertx, Future.succeededFuture(false)).toCompletionStage().toCompletableFuture().join();
    System.out.println(STARTED);
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
