package dev.svc.cli.access;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** Tests that run {@code svc} in-process against a fresh stub server, in a directory of their own. */
abstract class AgainstStubServer {

  @TempDir Path root;
  StubServer server;
  CliRun cli;

  @BeforeEach
  void startServer() throws Exception {
    server = new StubServer();
    cli = new CliRun(root);
  }

  @AfterEach
  void stopServer() {
    server.close();
  }
}
