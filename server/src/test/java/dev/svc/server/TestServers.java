package dev.svc.server;

import dev.svc.engine.Isolation;
import dev.svc.server.config.ConfigKey;
import dev.svc.server.config.ConfigLoader;
import dev.svc.server.config.ConfigSources;
import dev.svc.server.config.SvcConfig;
import dev.svc.server.engine.EnginePool;
import dev.svc.server.engine.SupervisedEngines;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;

/** Configurations and waiting for the servers of the tests. */
final class TestServers {

  private TestServers() {}

  /** A dev-mode configuration on free ports, with {@code keys} set as if by flags. */
  static SvcConfig config(Map<ConfigKey, String> keys) {
    Map<ConfigKey, ConfigSources.Flag> flags = new EnumMap<>(ConfigKey.class);
    flags.put(ConfigKey.MESH_MODE, new ConfigSources.Flag("--mesh-mode", "dev"));
    flags.put(ConfigKey.MESH_PORT, new ConfigSources.Flag("--port", "0"));
    flags.put(ConfigKey.KUBERNETES_MODE, new ConfigSources.Flag("--kubernetes-mode", "embedded"));
    keys.forEach((key, value) -> flags.put(key, new ConfigSources.Flag("--test", value)));
    SvcConfig c = ConfigLoader.load(new ConfigSources(flags, Map.of(), Optional.empty(), List.of()));
    // The key's 0 means 8080; a record built by hand can ask for any free port.
    return new SvcConfig(c.debug(), c.mesh(), c.server(), new SvcConfig.Health(0), c.otel(), c.kubernetes(),
        c.operator(), c.api(), c.output(), c.clusterInfo(), c.engine(), c.policies());
  }

  /** The supervised engines of a pool of one instance, reporting to {@code registry}. */
  static EnginePool oneEngine(MeterRegistry registry) {
    return SupervisedEngines.start(
        new SvcConfig.Engine(1, Duration.ofSeconds(1), Duration.ofSeconds(1), 256L << 20, Duration.ofSeconds(5),
            Isolation.IN_PROCESS, Duration.ZERO),
        registry);
  }

  /** Sends {@code body} (none when null) to the API on {@code port} and waits for the answer. */
  static HttpResponse<Buffer> send(WebClient client, HttpMethod method, int port, String path, JsonObject body) {
    HttpRequest<Buffer> request = client.request(method, port, "127.0.0.1", path);
    return await(body == null
        ? request.send()
        : request.putHeader("Content-Type", "application/json").sendBuffer(body.toBuffer()));
  }

  static SvcConfig config() {
    return config(Map.of());
  }

  /**
   * Probes {@code port} with requests that need no engine, each on a new connection, until one is
   * refused, as the API's listener is once a stop begins.
   *
   * @return why the connection failed
   */
  static Throwable refusedConnection(Vertx vertx, int port) {
    return refusedConnection(vertx, "127.0.0.1", port);
  }

  /** Probes {@code host:port} until a connection is refused, and returns the failure. */
  static Throwable refusedConnection(Vertx vertx, String host, int port) {
    WebClient probes = WebClient.create(vertx, new WebClientOptions().setKeepAlive(false));
    AtomicReference<Throwable> refused = new AtomicReference<>();
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
      refused.set(failure(probes.get(port, host, "/api/v1/nothing").send()));
      return refused.get() != null;
    });
    return refused.get();
  }

  /** What {@code future} failed with, or null when it succeeded. */
  static Throwable failure(Future<?> future) {
    try {
      future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError("the future didn't complete", e);
    }
  }

  static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("the future didn't complete", e);
    }
  }

  /**
   * The next answer on {@code socket}, head and body, read by its Content-Length and leaving the
   * connection open for the next one (a kept-alive or pipelined connection). The socket's read
   * timeout applies.
   */
  static String oneAnswer(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new AssertionError("the connection closed after " + head.toString(StandardCharsets.ISO_8859_1));
      }
      head.write(b);
    }
    String answerHead = head.toString(StandardCharsets.ISO_8859_1);
    int length = answerHead.lines().filter(line -> line.toLowerCase(Locale.ROOT).startsWith("content-length:"))
        .map(line -> Integer.parseInt(line.substring("content-length:".length()).trim()))
        .findFirst().orElseThrow(() -> new AssertionError("no Content-Length in " + answerHead));
    return answerHead + new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }
}
