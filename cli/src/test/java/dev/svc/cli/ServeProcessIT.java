package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code svc serve} as a user runs it: the packaged jar in its own process, stopped by SIGTERM. */
class ServeProcessIT {

  private static final Pattern LISTENING = Pattern.compile("API listening on (http://127\\.0\\.0\\.1:\\d+)");

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Test
  void serve_with_the_dev_config_evaluates_access_main_over_http_and_exits_0_on_sigterm() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process serve = new ProcessBuilder(java.toString(), "-Dsvc.cache.dir=" + System.getProperty("svc.cache.dir"),
        "-jar", Path.of(System.getProperty("svc.jar")).toAbsolutePath().toString(), "serve",
        "--config", "conf/dev.yaml", "--port", "0", "--health-port", String.valueOf(freePort()))
        // The development config names its policy directory relative to the repository root.
        .directory(Path.of("..").toFile())
        .redirectErrorStream(true)
        .start();
    List<String> output = new CopyOnWriteArrayList<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader lines = new BufferedReader(
          new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8))) {
        lines.lines().forEach(output::add);
      } catch (IOException e) {
        output.add("reading the output failed: " + e);
      }
    });
    reader.start();
    try {
      String url = await().atMost(Duration.ofSeconds(120))
          .until(() -> output.stream().map(LISTENING::matcher).filter(Matcher::find).map(m -> m.group(1))
              .findFirst().orElse(null), u -> u != null);

      HttpResponse<String> answer = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(url + "/api/v1/format"))
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString("{\"source\": \"policy   a.b:K@1\"}"))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.body()).isEqualTo("{\"source\":\"policy a.b: K@1\\n\",\"formatted\":false}");
      HttpResponse<String> decided = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(url + "/api/v1/policies/access.main/eval"))
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString("{\"input\": {\"user\": {\"name\": \"ann\", \"teams\": [],"
                  + " \"admin\": false}, \"action\": \"delete\", \"resource\": {\"name\": \"ledger\", \"team\": \"payments\"}}}"))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(decided.statusCode()).isEqualTo(200);
      assertThat(decided.body()).startsWith("{\"policy\":\"access.main\",\"decision\":\"deny\",\"reason\":\"admin_only\",");

      serve.destroy();
      assertThat(serve.waitFor(60, TimeUnit.SECONDS)).as("stopped within the grace").isTrue();
      assertThat(serve.exitValue()).as("exit code; output:%n%s", String.join("\n", output)).isZero();
    } finally {
      serve.destroyForcibly();
      reader.join(TimeUnit.SECONDS.toMillis(10));
    }
  }
}
