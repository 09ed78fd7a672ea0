package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code svc serve} as a user runs it: the packaged jar started by {@code scripts/run}, whose JVM is
 * the child of {@code scripts/relay-signals}, stopped gracefully by SIGTERM, SIGINT and SIGQUIT
 * (access-server spec §1.4) while {@code jcmd} on the JVM keeps working.
 */
class ServeProcessIT {

  private static LaunchedServe start() throws Exception {
    return LaunchedServe.start("bash", LaunchedServe.ROOT.resolve("scripts/run").toString(), "--no-build");
  }

  @Test
  void serve_with_the_dev_config_formats_and_evaluates_access_main_over_http() throws Exception {
    try (LaunchedServe serve = start()) {
      HttpResponse<String> answer = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(serve.url() + "/api/v1/format"))
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString("{\"source\": \"policy   a.b:K@1\"}"))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.body()).isEqualTo("{\"source\":\"policy a.b: K@1\\n\",\"formatted\":false}");
      serve.assertEvaluates();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"TERM", "INT", "QUIT"})
  void a_signal_to_the_launcher_stops_the_server_gracefully_and_exits_0(String signal) throws Exception {
    try (LaunchedServe serve = start()) {
      ProcessHandle jvm = serve.jvm();
      serve.signal(signal);
      assertThat(serve.exitCode()).as("exit code; output:%n%s", String.join("\n", serve.output())).isZero();
      assertThat(serve.output()).anySatisfy(line -> assertThat(line).contains(LaunchedServe.STOP_LINES.get(0)));
      assertThat(serve.output()).last().asString().contains(LaunchedServe.STOP_LINES.get(1));
      assertThat(jvm.isAlive()).as("the JVM after the launcher").isFalse();
    }
  }

  @Test
  void jcmd_attaches_to_the_servers_jvm_and_the_server_keeps_serving() throws Exception {
    try (LaunchedServe serve = start()) {
      Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
      // The attach mechanism sends the JVM SIGQUIT: the JVM's own, not a stop.
      Process dump = new ProcessBuilder(jcmd.toString(), String.valueOf(serve.jvm().pid()), "Thread.print")
          .redirectErrorStream(true).start();
      String threads = new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(dump.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(dump.exitValue()).as("jcmd's exit code; its output:%n%s", threads).isZero();
      assertThat(threads).contains("Full thread dump", "\"vert.x-eventloop-thread-");

      serve.assertEvaluates();
      assertThat(serve.launcher().isAlive()).isTrue();
      assertThat(serve.output()).noneSatisfy(line -> assertThat(line).contains(LaunchedServe.STOP_LINES.get(0)));
    }
  }

  @Test
  void the_jvm_goes_with_a_launcher_killed_by_sigkill() throws Exception {
    try (LaunchedServe serve = start()) {
      ProcessHandle jvm = serve.jvm();
      serve.launcher().destroyForcibly();
      // setpriv --pdeathsig KILL: the kernel kills the JVM when its parent dies.
      assertThat(jvm.onExit().get(60, TimeUnit.SECONDS).isAlive()).isFalse();
    }
  }
}
