package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import java.nio.charset.StandardCharsets;
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
    Process child = new ProcessBuilder(List.of(java.toString(), "-Dio.netty.transport.noNative=true", "-cp",
        System.getProperty("java.class.path"), NetworkTransportTest.class.getName()))
        .redirectErrorStream(true).start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();

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
    Vertx vertx = SvcServer.vertx(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), Optional.empty());
    HttpServer server = await(vertx.createHttpServer().requestHandler(request -> request.response().end("ok"))
        .listen(0, "127.0.0.1"));
    HttpClientResponse response = await(vertx.createHttpClient()
        .request(HttpMethod.GET, server.actualPort(), "127.0.0.1", "/").compose(request -> request.send()));
    Buffer body = await(response.body());
    System.out.println("served over " + (vertx.isNativeTransportEnabled() ? "epoll" : "NIO") + ": "
        + response.statusCode() + " " + body);
    await(vertx.close());
    System.exit(0);
  }
}
