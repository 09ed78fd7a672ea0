package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.access.ClientRuntime;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code svc version}: spec access-server §11.8. */
class VersionCommandTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine svc = Svc.commandLine(ClientRuntime.ofProcess(), args);
    svc.setOut(new PrintWriter(out, true));
    svc.setErr(new PrintWriter(err, true));
    return svc.execute(args);
  }

  @Test
  void text_is_three_lines_version_date_and_commit_of_this_build() {
    assertThat(run("version")).isZero();
    assertThat(out.toString())
        .matches("Version: \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\n"
            + "Date:    \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\n"
            + "Commit:  [0-9a-f]{40}\n");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void double_dash_version_prints_the_same_three_lines() {
    assertThat(run("version")).isZero();
    String version = out.toString();
    out.getBuffer().setLength(0);
    assertThat(run("--version")).isZero();
    assertThat(out.toString()).isEqualTo(version);
  }

  @Test
  void json_is_the_engines_version_record_with_its_keys_in_order() {
    assertThat(run("version", "-o", "json")).isZero();
    assertThat(out.toString())
        .matches("\\{\"version\":\"[^\"]+\",\"commit\":\"[^\"]*\",\"commitTime\":\"[^\"]*\",\"dirty\":(true|false),"
            + "\"goVersion\":\"[^\"]+\",\"platform\":\"[^\"]+\"}\n");
  }

  @Test
  void values_the_build_did_not_fill_in_read_unknown() {
    Properties unfilled = new Properties();
    unfilled.setProperty("version", "0.1.0");
    unfilled.setProperty("date", "${git.build.time}");
    assertThat(BuildInfo.of(unfilled).text())
        .isEqualTo("Version: 0.1.0\nDate:    unknown\nCommit:  unknown\n");
  }
}
