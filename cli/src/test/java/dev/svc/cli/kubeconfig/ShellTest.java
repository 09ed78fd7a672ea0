package dev.svc.cli.kubeconfig;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ShellTest {

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource(delimiter = '|', textBlock = """
      Windows 11 | SHELL=/bin/zsh                                        | POWERSHELL
      Linux      | SHELL=/usr/bin/fish                                   | FISH
      Linux      | SHELL=/bin/zsh,FISH_VERSION=3                         | ZSH
      Linux      | SHELL=/bin/bash,ZSH_VERSION=5                         | BASH
      Linux      | SHELL=/bin/sh,POWERSHELL_DISTRIBUTION_CHANNEL=x,FISH_VERSION=3 | POWERSHELL
      Linux      | SHELL=/bin/sh,FISH_VERSION=3,ZSH_VERSION=5            | FISH
      Linux      | ZSH_VERSION=5,BASH_VERSION=5                          | ZSH
      Linux      | BASH_VERSION=5                                        | BASH
      Linux      | SHELL=/bin/dash                                       | BASH
      Mac OS X   | SHELL=/bin/zsh                                        | ZSH
      """)
  void the_shell_is_detected_in_the_specs_order(String os, String variables, Shell expected) {
    Map<String, String> environment = new HashMap<>();
    for (String pair : variables.split(",")) {
      String[] kv = pair.split("=", 2);
      environment.put(kv[0], kv[1]);
    }

    assertThat(Shell.detect(os, environment)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      BASH       | /tmp/kubeconfig-1.yaml     | export KUBECONFIG='/tmp/kubeconfig-1.yaml'
      ZSH        | /tmp/my dir/it's.yaml      | export KUBECONFIG='/tmp/my dir/it'\\''s.yaml'
      FISH       | /tmp/my dir/it's\\x.yaml   | set -gx KUBECONFIG '/tmp/my dir/it'\\''s\\\\x.yaml'
      POWERSHELL | C:/Temp/a $b "c" `d.yaml   | $env:KUBECONFIG = "C:/Temp/a `$b `"c`" ``d.yaml"
      """)
  void the_statement_quotes_the_path(Shell shell, String path, String statement) {
    assertThat(shell.exportStatement(Path.of(path))).isEqualTo(statement);
  }
}
