package dev.svc.cli.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.access.StubServer.Answer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The global flags of §11.2 work before the command as after it, as tka's persistent flags do. */
class GlobalFlagsTest extends AgainstStubServer {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      login                                  | login
      -s svc-eu login                        | login -s svc-eu
      --server=svc-eu -q login --shell       | login --shell --server=svc-eu -q
      --debug true -p 8443 get kubeconfig    | get kubeconfig --debug true -p 8443
      --debug get kubeconfig                 | get kubeconfig --debug
      -q false -c my.yaml config set a b     | config set a b -q false -c my.yaml
      -e login -- extra                      | login -e -- extra
      -h login                               | -h login
      -s                                     | -s
      -s svc-eu --unknown login              | -s svc-eu --unknown login
      """)
  void flags_before_the_command_move_after_its_own_arguments(String written, String read) {
    assertThat(String.join(" ", GlobalFlags.afterCommand(written.split(" ")))).isEqualTo(read);
  }

  @Test
  void a_server_and_quiet_written_before_the_command_are_the_commands_own() {
    server.on("POST", "/login", Answer.of(202, StubServer.SESSION))
        .on("GET", "/kubeconfig", Answer.of(200, StubServer.KUBECONFIG));
    cli.environment.put("SVC_KUBECONFIG_MODE", "file");

    CliRun.Result result = cli.run("--server", "http://127.0.0.1", "--port", Integer.toString(server.port()), "-q",
        "login");

    assertThat(result.code()).as(result.err()).isZero();
    assertThat(result.out()).startsWith("export KUBECONFIG='").endsWith("'\n").hasLineCount(1);
  }
}
