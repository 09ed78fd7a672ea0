package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.server.config.ConfigKey;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A server whose engine instances may have 16 MiB each ({@code engine.maxMemory}), one instance: a request
 * that needs more is answered 413 with what to make smaller, its instance is rebuilt, and each instance's
 * memory is a metric.
 */
@ExtendWith(VertxExtension.class)
class MemoryLimitTest {

  private static SvcServer server;
  private static WebClient client;

  @BeforeAll
  static void start(Vertx vertx) {
    server = await(SvcServer.start(TestServers.config(Map.of(
        ConfigKey.ENGINE_MAX_MEMORY, "16MiB",
        ConfigKey.ENGINE_POOL_SIZE, "1"))));
    client = WebClient.create(vertx);
  }

  @AfterAll
  static void stop() {
    await(server.stop());
  }

  private static HttpResponse<Buffer> format(String source) {
    return await(client.post(server.apiPort(), "127.0.0.1", "/api/v1/format")
        .putHeader("Content-Type", "application/json")
        .sendBuffer(new JsonObject().put("source", source).toBuffer()));
  }

  private static long instanceMemory() {
    String metrics = await(client.get(server.healthPort(), "127.0.0.1", "/metrics").send()).bodyAsString();
    Matcher gauge = Pattern.compile("(?m)^svc_pool_memory_bytes\\{instance=\"0\"} (\\S+)$").matcher(metrics);
    assertThat(gauge.find()).as("the memory gauge in %s", metrics).isTrue();
    return (long) Double.parseDouble(gauge.group(1));
  }

  @Test
  void a_format_that_needs_more_memory_than_the_cap_is_413_and_the_next_one_works() {
    // Two million tokens: more than 16 MiB of them, in a request of 2 MB, below the body limit.
    HttpResponse<Buffer> tooLarge = format("(".repeat(2_000_000));

    assertThat(tooLarge.statusCode()).isEqualTo(413);
    assertThat(tooLarge.bodyAsJsonObject()).isEqualTo(new JsonObject()
        .put("message", "the format needed more memory than an engine instance may have (engine.maxMemory, 16 MiB),"
            + " so it was stopped")
        .put("help", "format a smaller source: split the file into several; the server's operator can raise"
            + " engine.maxMemory"));
    assertThat(instanceMemory()).as("the stopped instance's memory").isLessThanOrEqualTo(16L << 20);

    HttpResponse<Buffer> small = format("policy a.b: K@1\n");

    assertThat(small.statusCode()).as("the instance was rebuilt").isEqualTo(200);
    assertThat(small.bodyAsJsonObject().getString("source")).isEqualTo("policy a.b: K@1\n");
    assertThat(instanceMemory()).as("the rebuilt instance's memory").isLessThan(8L << 20);
  }
}
