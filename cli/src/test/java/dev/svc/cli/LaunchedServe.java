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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code svc serve} with the development config, started by a launcher ({@code scripts/run}, the
 * installed {@code svc}) as a user starts it, in its own process: its output, its API's URL once it
 * listens, its JVM (the launcher's child), and signals to the launcher.
 */
final class LaunchedServe implements AutoCloseable {

  /** The repository, where conf/dev.yaml and the scripts are. */
  static final Path ROOT = Path.of(System.getProperty("svc.root"));

  /** The stop of svc serve's shutdown hook, as it logs it. */
  static final List<String> STOP_LINES = List.of(
      "\"message\":\"stopping: requests in flight get up to 30 s\"", "\"message\":\"stopped\"");

  private static final Pattern LISTENING = Pattern.compile("API listening on (http://127\\.0\\.0\\.1:\\d+)");

  private final Process launcher;
  private final Thread reader;
  private final List<String> output = new CopyOnWriteArrayList<>();
  private final String url;

  private LaunchedServe(List<String> launcherCommand) throws IOException, InterruptedException {
    // A process this JVM starts inherits SIGQUIT blocked (HotSpot blocks it in Java threads), and the
    // launcher would never see it: perl starts it with nothing blocked, as a shell or Kubernetes does.
    List<String> command = new ArrayList<>(List.of("perl", "-MPOSIX", "-e",
        "sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die \"sigprocmask: $!\"; exec @ARGV or die \"exec: $!\"",
        "--"));
    command.addAll(launcherCommand);
    command.addAll(List.of("serve", "--config", "conf/dev.yaml", "--port", "0", "--health-port",
        String.valueOf(freePort())));
    ProcessBuilder builder = new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true);
    builder.environment().put("SVC_CACHE_DIR", System.getProperty("svc.cache.dir"));
    launcher = builder.start();
    reader = new Thread(() -> {
      try (BufferedReader lines = new BufferedReader(
          new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8))) {
        lines.lines().forEach(output::add);
      } catch (IOException e) {
        output.add("reading the output failed: " + e);
      }
    });
    reader.start();
    try {
      url = await().atMost(Duration.ofSeconds(120))
          .until(() -> output.stream().map(LISTENING::matcher).filter(Matcher::find).map(m -> m.group(1))
              .findFirst().orElse(null), u -> u != null || !launcher.isAlive());
      assertThat(url).as("the API's URL; output:%n%s", String.join("\n", output)).isNotNull();
    } catch (RuntimeException | AssertionError e) {
      close();
      throw e;
    }
  }

  /**
   * Starts svc serve with the launcher {@code command} and waits until its API listens.
   *
   * @param command the launcher, e.g. {@code scripts/run --no-build}, without {@code serve}
   * @return the running server
   */
  static LaunchedServe start(String... command) throws IOException, InterruptedException {
    return new LaunchedServe(List.of(command));
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** The launcher's process, the one users and Kubernetes signal. */
  Process launcher() {
    return launcher;
  }

  /** The JVM that runs the server: the launcher's only child. */
  ProcessHandle jvm() {
    List<ProcessHandle> children = launcher.children().toList();
    assertThat(children).as("the launcher's children").hasSize(1);
    assertThat(children.get(0).info().command()).hasValueSatisfying(c -> assertThat(c).endsWith("/java"));
    return children.get(0);
  }

  /** What the launcher and the server wrote so far, stdout and stderr, one line an element. */
  List<String> output() {
    return List.copyOf(output);
  }

  /**
   * Sends the launcher a signal with kill(1).
   *
   * @param signal its name without SIG, e.g. QUIT
   */
  void signal(String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-s", signal, String.valueOf(launcher.pid())).inheritIO().start();
    assertThat(kill.waitFor()).as("kill -s %s", signal).isZero();
  }

  /**
   * Evaluates access.main for a caller it denies, asserting the exact answer.
   */
  void assertEvaluates() throws IOException, InterruptedException {
    HttpResponse<String> decided = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(url + "/api/v1/policies/access.main/eval"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"input\": {\"user\": {\"name\": \"ann\", \"teams\": [],"
                + " \"admin\": false}, \"action\": \"delete\", \"resource\": {\"name\": \"ledger\", \"team\": \"payments\"}}}"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(decided.statusCode()).isEqualTo(200);
    assertThat(decided.body()).startsWith("{\"policy\":\"access.main\",\"decision\":\"deny\",\"reason\":\"admin_only\",");
  }

  /** The server's API URL. */
  String url() {
    return url;
  }

  /**
   * Waits for the launcher to end and for its output to be read.
   *
   * @return the launcher's exit code
   */
  int exitCode() throws InterruptedException {
    assertThat(launcher.waitFor(60, TimeUnit.SECONDS)).as("stopped within the grace").isTrue();
    reader.join(TimeUnit.SECONDS.toMillis(10));
    return launcher.exitValue();
  }

  @Override
  public void close() throws InterruptedException {
    launcher.descendants().forEach(ProcessHandle::destroyForcibly);
    launcher.destroyForcibly();
    reader.join(TimeUnit.SECONDS.toMillis(10));
  }
}
