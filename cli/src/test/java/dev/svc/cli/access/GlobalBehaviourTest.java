package dev.svc.cli.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.access.StubServer.Answer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Flags, themes, colour, usage errors and exit codes common to the user commands (§11.1, §11.2, §11.9, §11.12). */
class GlobalBehaviourTest extends AgainstStubServer {

  @BeforeEach
  void script() {
    server.on("POST", "/logout", Answer.of(200, StubServer.SESSION));
  }

  @Test
  void an_unknown_theme_exits_1_before_anything_runs() {
    CliRun.Result result = cli.against(server, "signout", "--theme", "neon");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.out()).isEmpty();
    assertThat(result.err()).isEqualTo("""
        ✗ invalid theme: neon

        💡 What you can do:
          • use one of: ascii, dark, dracula, tokyo-night, light, notty, markdown
        """);
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void an_unknown_theme_in_the_environment_exits_1_too() {
    cli.environment.put("SVC_OUTPUT_THEME", "neon");

    assertThat(cli.against(server, "signout").code()).isEqualTo(1);
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void a_terminal_gets_colour_and_no_color_or_a_pipe_turns_it_off() {
    cli.tty = true;
    assertThat(cli.against(server, "signout").out()).isEqualTo("\033[38;2;158;206;106m✓\033[0m You have been signed out\n");

    cli.environment.put("NO_COLOR", "");
    assertThat(cli.against(server, "signout").out()).isEqualTo("✓ You have been signed out\n");

    cli.environment.remove("NO_COLOR");
    cli.tty = false;
    assertThat(cli.against(server, "signout").out()).isEqualTo("✓ You have been signed out\n");

    cli.tty = true;
    cli.environment.put("TERM", "dumb");
    assertThat(cli.against(server, "signout").out()).isEqualTo("✓ You have been signed out\n");
  }

  @Test
  void the_ascii_theme_draws_with_ascii_only() {
    server.on("GET", "/login", Answer.of(200, StubServer.SESSION));

    CliRun.Result result = cli.against(server, "get", "login", "-t", "ascii");

    assertThat(result.out()).startsWith("i Login Information:\n    +---").contains("    | User:        dana ");
  }

  @Test
  void an_unknown_flag_is_a_usage_error() {
    CliRun.Result result = cli.run("login", "--nope");

    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err()).startsWith("Unknown option: '--nope'");
  }

  @Test
  void extra_arguments_are_a_usage_error() {
    assertThat(cli.run("signout", "now").code()).isEqualTo(2);
    assertThat(cli.run("set", "config", "a", "b", "c").code()).isEqualTo(2);
    assertThat(cli.run("generate", "integration").code()).isEqualTo(2);
  }

  @Test
  void a_verb_without_a_subcommand_prints_its_help_and_exits_0() {
    for (String verb : new String[] {"get", "set", "generate"}) {
      CliRun.Result result = cli.run(verb);

      assertThat(result.code()).as(verb).isZero();
      assertThat(result.out()).as(verb).startsWith("Usage\n\n  svc " + verb + " [command]\n");
    }
  }

  @Test
  void the_generate_group_hides_the_documentation_command() {
    assertThat(cli.run("generate").out()).contains("integration").doesNotContain("Write the command reference");
  }

  @Test
  void the_server_comes_from_the_config_file_and_a_flag_wins_over_it() throws Exception {
    Files.writeString(cli.home.resolve("config.yaml"), "mesh:\n  hostname: http://127.0.0.1\n  port: 1\n");

    CliRun.Result result = cli.run("signout", "--port", Integer.toString(server.port()));

    assertThat(result.code()).isZero();
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void the_environment_wins_over_the_config_file() throws Exception {
    Files.writeString(cli.home.resolve("config.yaml"), "mesh:\n  hostname: http://127.0.0.1\n  port: 1\n");
    cli.environment.put("SVC_MESH_PORT", Integer.toString(server.port()));

    assertThat(cli.run("signout").code()).isZero();
  }

  @Test
  void a_config_file_that_cant_be_read_is_a_usage_error() throws Exception {
    Files.writeString(cli.home.resolve("config.yaml"), "mesh: [unclosed\n");

    CliRun.Result result = cli.run("signout");

    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err()).startsWith("✗ error reading config file\n");
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void a_config_file_shared_with_the_server_works_even_with_cluster_info_a_server_would_refuse() throws Exception {
    // The server's keys, and cluster info that fails the server's start checks (spec §2.6): not the client's business.
    Files.writeString(cli.home.resolve("config.yaml"), "mesh:\n  hostname: http://127.0.0.1\n  port: "
        + server.port() + "\n  stateDir: /var/lib/svc\noperator:\n  namespace: svc-prod\nhealth:\n  port: 9090\n"
        + "clusterInfo:\n  apiEndpoint: https://k8s:6443\n  configMapRef:\n    enabled: true\n");

    CliRun.Result result = cli.run("signout");

    assertThat(result.err()).isEmpty();
    assertThat(result.code()).isZero();
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void an_unknown_key_in_the_config_file_is_a_usage_error_with_a_suggestion() throws Exception {
    Files.writeString(cli.home.resolve("config.yaml"), "mesh:\n  hostnmae: http://127.0.0.1\n");

    CliRun.Result result = cli.run("signout");

    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err()).isEqualTo("""
        ✗ error reading config file

        💡 What you can do:
          • did you mean `mesh.hostname`? conf/config.yaml lists every key

        🔎 Root causes:
          • config file %s:2:3: mesh.hostnmae: unknown key
        """.formatted(cli.home.resolve("config.yaml")));
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void no_eval_is_accepted_and_ignored() {
    assertThat(cli.against(server, "signout", "-e").code()).isZero();
    assertThat(cli.against(server, "signout", "--no-eval", "--long").code()).isZero();
  }
}
