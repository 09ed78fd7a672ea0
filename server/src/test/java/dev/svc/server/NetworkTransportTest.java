package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The server's network transport: Netty's native epoll where its library loads, Java's NIO where it
 * doesn't, and a log line that says which one runs.
 */
class NetworkTransportTest {

  @Test
  void on_linux_x86_64_the_server_runs_on_native_epoll() {
    assumeTrue(System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64"),
        "the server carries epoll's library for Linux on x86-64 only");
    Vertx vertx = SvcServer.vertx(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), Optional.empty());
    try {
      assertThat(vertx.isNativeTransportEnabled()).isTrue();
      assertThat(SvcServer.transport(vertx)).isEqualTo("network transport: native epoll");
    } finally {
      await(vertx.close());
    }
  }

  @Test
  void without_the_native_library_the_server_runs_on_nio_and_says_why() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path log = Files.createTempFile("svc-nio-child", ".log");
    Process child = new ProcessBuilder(List.of(java.toString(), "-Dio.netty.transport.noNative=true", "-cp",
        System.getProperty("java.class.path"), NetworkTransportTest.class.getName()))
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    // Its output goes to a file, so a child that hangs fails the test at the wait, not the read.
    boolean exited = child.waitFor(60, TimeUnit.SECONDS);
    child.destroyForcibly();
    String output = Files.readString(log, StandardCharsets.UTF_8);
    Files.delete(log);
    assertThat(exited).as(output).isTrue();

    assertThat(output).contains("INFO: network transport: Java NIO; native epoll is unavailable (Native transport was"
        + " explicit disabled with -Dio.netty.transport.noNative=true)");
    assertThat(output).contains("served over NIO: 200 ok");
    assertThat(child.exitValue()).as(output).isZero();
  }

  /**
   * The child of the NIO case: builds the server's Vert.x and serves one HTTP request with it, so
   * the fallback is seen to work, not only to be chosen.
   *
   * @param args none
   */
  public static void main(String[] args) {
    try {
      serveOne();
    } catch (RuntimeException | AssertionError e) {
      // Vert.x's event loops would keep the JVM up after main ended.
      e.printStackTrace();
      System.exit(1);
    }
    System.exit(0);
  }

  private static void serveOne() {
    Vertx vertx = SvcServer.vertx(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), Optional.empty());
    HttpServer server = await(vertx.createHttpServer().requestHandler(request -> request.response().end("ok"))
        .listen(0, "127.0.0.1"));
    // The body is asked for on the event loop that got the response, before any of it can arrive.
    String answer = await(vertx.createHttpClient()
        .request(HttpMethod.GET, server.actualPort(), "127.0.0.1", "/")
        .compose(HttpClientRequest::send)
        .compose(response -> response.body().map(body -> response.statusCode() + " " + body)));
    System.out.println("served over " + (vertx.isNativeTransportEnabled() ? "epoll" : "NIO") + ": " + answer);
    await(vertx.close());
  }
}
