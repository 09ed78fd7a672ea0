package dev.svc.server.mesh.tailnet;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The local API contract against a real tailscaled, opt-in: set {@code SVC_TEST_TAILSCALED} to the
 * daemon binary. It runs logged out, in userspace mode, with its state in a temp directory, and
 * never reaches a control server (nothing here starts a login).
 */
@ExtendWith(VertxExtension.class)
class RealDaemonContractTest extends LocalApiContract {

  private static final String BINARY = System.getenv().getOrDefault("SVC_TEST_TAILSCALED", "");

  private Process daemon;

  @BeforeAll
  static void needsADaemon() {
    if (BINARY.isEmpty()) {
      System.err.println("RealDaemonContractTest skipped: SVC_TEST_TAILSCALED is not set (name a tailscaled "
          + "binary to check the fake against a real daemon)");
    }
    assumeTrue(!BINARY.isEmpty(), "SVC_TEST_TAILSCALED is not set: no real tailscaled to check the fake against");
  }

  @Override
  protected Path startDaemon(Vertx vertx) throws Exception {
    Path dir = Files.createTempDirectory("ts-contract");
    Path socket = dir.resolve("s.sock");
    daemon = new ProcessBuilder(BINARY, "--tun=userspace-networking", "--statedir=" + dir.resolve("state"),
        "--socket=" + socket, "--port=0", "--no-logs-no-support").redirectErrorStream(true)
        .redirectOutput(dir.resolve("tailscaled.log").toFile()).start();
    return socket;
  }

  @Override
  protected void stopDaemon() throws Exception {
    daemon.destroy();
    if (!daemon.waitFor(10, TimeUnit.SECONDS)) {
      daemon.destroyForcibly().waitFor();
    }
  }
}
