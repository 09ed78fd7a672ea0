package dev.svc.cli.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc config}, {@code get config} and {@code set config} (§11.8, deviation D26). */
class ConfigCommandTest {

  @TempDir Path root;
  CliRun cli;
  Path file;

  @BeforeEach
  void start() throws Exception {
    cli = new CliRun(root);
    file = cli.home.resolve("config.yaml");
  }

  @Test
  void one_key_shows_its_effective_value() throws Exception {
    Files.writeString(file, "mesh:\n  hostname: corp-svc\n");

    assertThat(cli.run("config", "mesh.hostname").out()).isEqualTo("→ mesh.hostname: corp-svc\n");
    assertThat(cli.run("get", "config", "MESH.HOSTNAME").out()).isEqualTo("→ mesh.hostname: corp-svc\n");
    assertThat(cli.run("config", "mesh.port").out()).isEqualTo("→ mesh.port: 443\n");
    assertThat(cli.run("config", "mesh.hostname", "-s", "flagged").out()).isEqualTo("→ mesh.hostname: flagged\n");
  }

  @Test
  void quiet_prints_the_bare_value_and_nothing_when_unset() {
    assertThat(cli.run("config", "mesh.port", "-q").out()).isEqualTo("443\n");
    CliRun.Result unset = cli.run("config", "mesh.tailnet", "-q");
    assertThat(unset.code()).isZero();
    assertThat(unset.out()).isEmpty();
  }

  @Test
  void an_unset_key_says_so() {
    assertThat(cli.run("config", "mesh.tailnet").out()).isEqualTo("ℹ Configuration key not set: mesh.tailnet\n");
    assertThat(cli.run("config", "no.such.key").out()).isEqualTo("ℹ Configuration key not set: no.such.key\n");
  }

  @Test
  void filename_names_the_file_in_use() throws Exception {
    Files.writeString(file, "debug: true\n");

    assertThat(cli.run("config", "debug", "--filename").out())
        .isEqualTo("→ debug: true\n  Config file used: " + file + "\n");
    assertThat(cli.run("config", "--filename", "-q").out()).isEqualTo(file + "\n");
    assertThat(cli.run("get", "config", "--filename").out()).startsWith("ℹ Config file used: " + file + "\n\ndebug: true\n");
  }

  @Test
  void filename_quiet_and_a_key_together_are_a_usage_error() {
    CliRun.Result result = cli.run("config", "debug", "--filename", "--quiet");

    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err()).startsWith("✗ Invalid: cannot combine --filename and --quiet when also specifying a [key]\n");
  }

  @Test
  void all_keys_show_as_yaml_and_quiet_shows_nothing() {
    CliRun.Result result = cli.run("config");

    assertThat(result.out()).startsWith("\ndebug: false\nmesh:\n  hostname: svc\n  port: 443\n")
        .contains("output:\n  theme: tokyo-night\n  long: true\n  quiet: false\n");
    assertThat(cli.run("config", "-q").out()).isEmpty();
  }

  @Test
  void setting_a_key_writes_only_that_key_and_keeps_the_rest() throws Exception {
    Files.writeString(file, "mesh:\n  hostname: corp-svc\n  Port: 8443\noutput.theme: dark\n");

    CliRun.Result result = cli.run("set", "config", "mesh.port", "9443");

    assertThat(result.code()).isZero();
    assertThat(result.out()).isEqualTo("✓ Configuration updated\n  mesh.port = 9443\n");
    assertThat(Files.readString(file)).isEqualTo("mesh:\n  hostname: corp-svc\n  Port: 9443\noutput.theme: dark\n");

    assertThat(cli.run("config", "output.theme", "light", "-q").out()).isEmpty();
    assertThat(cli.run("config", "debug", "true").code()).isZero();
    assertThat(Files.readString(file))
        .isEqualTo("mesh:\n  hostname: corp-svc\n  Port: 9443\noutput.theme: light\ndebug: true\n");
  }

  @Test
  void setting_an_existing_key_keeps_the_comments() throws Exception {
    Files.writeString(file, "# ours\nmesh:\n  hostname: corp-svc  # the node\n");

    assertThat(cli.run("set", "config", "mesh.hostname", "svc-prod").code()).isZero();

    assertThat(Files.readString(file)).isEqualTo("# ours\nmesh:\n  hostname: svc-prod  # the node\n");
  }

  @Test
  void setting_without_a_config_file_needs_force() throws Exception {
    CliRun.Result refused = cli.run("set", "config", "mesh.hostname", "corp");

    assertThat(refused.code()).isEqualTo(1);
    assertThat(refused.err()).startsWith("✗ no config file is in use\n").contains("--force");

    Path created = cli.home.resolve(".config/svc/config.yaml");
    assertThat(cli.run("set", "config", "mesh.hostname", "corp", "--force").code()).isZero();
    assertThat(Files.readString(created)).isEqualTo("mesh:\n  hostname: corp\n");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(created))).isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(created.getParent()))).isEqualTo("rwxr-xr-x");
  }

  @Test
  void a_value_the_key_cant_take_is_refused_and_the_file_kept() throws Exception {
    Files.writeString(file, "debug: false\n");

    CliRun.Result result = cli.run("set", "config", "mesh.port", "high");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err()).startsWith("✗ `high` isn't a value of mesh.port\n");
    assertThat(Files.readString(file)).isEqualTo("debug: false\n");
  }

  @Test
  void an_unknown_key_cant_be_set() {
    CliRun.Result result = cli.run("set", "config", "mesh.hostnam", "x", "--force");

    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err()).startsWith("✗ unknown configuration key: mesh.hostnam\n");
  }
}
