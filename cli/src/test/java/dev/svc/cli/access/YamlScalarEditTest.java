package dev.svc.cli.access;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class YamlScalarEditTest {

  private static final String FILE = """
      # the server on our tailnet
      mesh:
        hostname: corp-svc   # node name
        Port: 8443

      output.theme: dark
      labels: [a, b]
      quoted: "x"
      """;

  @Test
  void a_nested_plain_scalar_is_replaced_and_comments_stay() {
    assertThat(YamlScalarEdit.replace(FILE, "mesh.hostname", "svc-prod")).contains(FILE.replace(
        "hostname: corp-svc   # node name", "hostname: svc-prod   # node name"));
  }

  @Test
  void keys_match_in_any_case_nested_or_dotted() {
    assertThat(YamlScalarEdit.replace(FILE, "mesh.port", "9443")).contains(FILE.replace("Port: 8443", "Port: 9443"));
    assertThat(YamlScalarEdit.replace(FILE, "output.theme", "light"))
        .contains(FILE.replace("output.theme: dark", "output.theme: light"));
  }

  @Test
  void anything_but_a_plain_scalar_on_the_keys_line_is_declined() {
    assertThat(YamlScalarEdit.replace(FILE, "quoted", "y")).isEmpty();
    assertThat(YamlScalarEdit.replace(FILE, "labels", "c")).isEmpty();
    assertThat(YamlScalarEdit.replace(FILE, "mesh", "x")).isEmpty();
    assertThat(YamlScalarEdit.replace(FILE, "mesh.tailnet", "x")).isEmpty();
    assertThat(YamlScalarEdit.replace("mesh:\n  port:\n    8443\n", "mesh.port", "1")).isEmpty();
    assertThat(YamlScalarEdit.replace("mesh: [unclosed\n", "mesh.port", "1")).isEmpty();
    assertThat(YamlScalarEdit.replace(FILE, "mesh.port", "a\nb")).isEmpty();
  }
}
