package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.access.AccessCommands;
import dev.svc.cli.access.ClientRuntime;
import dev.svc.cli.policy.PolicyCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The command line {@code svc} builds for its arguments: only the top-level command they name, so a
 * command starts without reflecting over the others, yet it parses, prints and exits as the whole
 * tree does.
 */
class SvcTest {

  private static final ClientRuntime RUNTIME = ClientRuntime.ofProcess();

  private static List<String> commands(CommandLine svc) {
    return List.copyOf(svc.getSubcommands().keySet());
  }

  @Test
  void the_command_named_first_is_the_only_one_built_with_its_aliases() {
    assertThat(commands(Svc.commandLine(RUNTIME, "version"))).containsExactly("version");
    assertThat(commands(Svc.commandLine(RUNTIME, "signin", "--help"))).containsExactly("login", "signin", "auth");
    assertThat(commands(Svc.commandLine(RUNTIME, "policy", "check", "version"))).containsExactly("policy");
  }

  @ParameterizedTest
  @ValueSource(strings = {"--help", "-V", "bogus", "completion", "generate", "-x"})
  void no_command_first_or_one_that_reads_the_tree_gets_the_whole_tree(String first) {
    assertThat(commands(Svc.commandLine(RUNTIME, first, "version"))).isEqualTo(commands(Svc.commandLine(RUNTIME)));
  }

  @Test
  void the_whole_tree_lists_svcs_own_commands_then_the_user_commands() {
    assertThat(commands(Svc.commandLine(RUNTIME))).containsExactly("version", "serve", "policy", "login", "signin",
        "auth", "shell", "kubeconfig", "reauthenticate", "reauth", "refresh", "signout", "logout", "cluster-info",
        "config", "get", "set", "generate", "completion");
  }

  @Test
  void no_arguments_get_the_whole_tree() {
    assertThat(commands(Svc.commandLine(RUNTIME, new String[0]))).isEqualTo(commands(Svc.commandLine(RUNTIME)));
  }

  /** Every top-level name and alias with --help, and usage errors below and at the top. */
  static Stream<List<String>> runs() {
    List<List<String>> runs = new ArrayList<>();
    Stream.concat(Stream.of(VersionCommand.class, ServeCommand.class, PolicyCommand.class), AccessCommands.commands().stream())
        .map(command -> command.getAnnotation(Command.class))
        .flatMap(command -> Stream.concat(Stream.of(command.name()), Stream.of(command.aliases())))
        .forEach(name -> runs.add(List.of(name, "--help")));
    runs.addAll(List.of(List.of("version"), List.of("version", "extra"), List.of("version", "-o", "yaml"),
        List.of("policy"), List.of("policy", "chek"), List.of("policy", "check", "--nope"), List.of("serve", "--nope"),
        List.of("get"), List.of("generate", "integration", "bash"), List.of("login", "--theme", "nope"),
        List.of("versio"), List.of("-x", "version"), List.of("--help", "version")));
    return runs.stream();
  }

  @ParameterizedTest
  @MethodSource("runs")
  void a_run_prints_and_exits_as_on_the_whole_tree(List<String> args) {
    String[] argv = args.toArray(String[]::new);

    CapturedRun built = CapturedRun.of(Svc.commandLine(RUNTIME, argv), argv);

    assertThat(built).isEqualTo(CapturedRun.of(Svc.commandLine(RUNTIME), argv));
  }

  @Test
  void svc_version_loads_no_class_of_the_server_vertx_netty_or_jackson() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process svc = new ProcessBuilder(java.toString(), "-Xshare:auto", "-verbose:class",
        "-cp", System.getProperty("java.class.path"), Svc.class.getName(), "version")
        .redirectErrorStream(true).start();
    svc.getOutputStream().close();
    String out = read(svc);
    assertThat(svc.waitFor(2, TimeUnit.MINUTES)).isTrue();

    assertThat(svc.exitValue()).as(out).isZero();
    List<String> loaded = out.lines().filter(line -> line.contains("[class,load] ")).toList();
    assertThat(loaded).anyMatch(line -> line.contains(" dev.svc.cli.VersionCommand "));
    assertThat(loaded).noneMatch(line -> line.matches(
        ".*\\[class,load] (dev\\.svc\\.server|io\\.vertx|io\\.netty|com\\.fasterxml\\.jackson)\\..*"));
    assertThat(out).contains("\nVersion: ");
  }

  private static String read(Process process) throws IOException {
    return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }
}
