package dev.svc.cli.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc completion bash|zsh} (§11.10): picocli's script, loaded by the real shells. */
class CompletionCommandTest {

  @TempDir Path root;

  private Path script() throws Exception {
    CliRun.Result result = new CliRun(root).run("completion", "bash");
    assertThat(result.code()).isZero();
    Path script = root.resolve("svc_completion");
    Files.writeString(script, result.out());
    return script;
  }

  @Test
  void bash_registers_the_completion_and_completes_commands_and_themes() throws Exception {
    assumeFalse(SvcLauncher.missing("bash"), "bash is not installed");
    Path script = script();

    IntegrationCommandTest.Shells.Run run = IntegrationCommandTest.Shells.run(List.of("bash", "-c", """
        source '%s'
        complete -p svc
        COMP_WORDS=(svc log); COMP_CWORD=1; COMP_LINE='svc log'; COMP_POINT=7; _complete_svc; echo "${COMPREPLY[@]}"
        COMP_WORDS=(svc login --theme dr); COMP_CWORD=3; COMP_LINE='svc login --theme dr'; COMP_POINT=20
        _complete_svc 2>/dev/null; echo "${COMPREPLY[@]}"
        """.formatted(script)), Map.of("PATH", System.getenv("PATH")), root);

    assertThat(run.code()).as(run.output()).isZero();
    assertThat(run.output().lines().toList()).containsExactly("complete -o default -F _complete_svc svc", "login logout", "dracula");
  }

  @Test
  void zsh_loads_the_script_through_bashcompinit() throws Exception {
    assumeFalse(SvcLauncher.missing("zsh"), "zsh is not installed");
    Path script = script();

    IntegrationCommandTest.Shells.Run run = IntegrationCommandTest.Shells.run(List.of("zsh", "-c", """
        autoload -U +X compinit && compinit -u
        autoload -U +X bashcompinit && bashcompinit
        source '%s' && echo loaded
        """.formatted(script)), Map.of("PATH", System.getenv("PATH"), "HOME", root.toString()), root);

    assertThat(run.code()).as(run.output()).isZero();
    assertThat(run.output()).endsWith("loaded\n");
  }

  @Test
  void fish_completes_commands_subcommands_options_and_theme_names() throws Exception {
    assumeFalse(SvcLauncher.missing("fish"), "fish is not installed");
    CliRun.Result generated = new CliRun(root).run("completion", "fish");
    assertThat(generated.code()).isZero();
    Path script = root.resolve("svc.fish");
    Files.writeString(script, generated.out());

    IntegrationCommandTest.Shells.Run run = IntegrationCommandTest.Shells.run(List.of("fish", "-c", """
        source '%s'
        complete -C 'svc log'
        echo ==
        complete -C 'svc get k'
        echo ==
        complete -C 'svc login --the'
        echo ==
        complete -C 'svc login --theme to'
        """.formatted(script)), Map.of("PATH", System.getenv("PATH"), "HOME", root.toString()), root);

    assertThat(run.code()).as(run.output()).isZero();
    assertThat(run.output()).isEqualTo("""
        login\tSign in to the cluster and get a kubeconfig.
        logout\tSign out: end the session and remove its credentials.
        ==
        kubeconfig\tGet a kubeconfig with a fresh token for the current session.
        ==
        --theme\tColour theme: ascii, dark, dracula, tokyo-night, light, notty, markdown (output.theme; default: tokyo-night).
        ==
        tokyo-night\tColour theme: ascii, dark, dracula, tokyo-night, light, notty, markdown (output.theme; default: tokyo-night).
        """);
  }

  @Test
  void another_shell_is_a_usage_error() throws Exception {
    CliRun.Result result = new CliRun(root).run("completion", "tcsh");

    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err()).isEqualTo("Unsupported shell: tcsh\n");
  }
}
