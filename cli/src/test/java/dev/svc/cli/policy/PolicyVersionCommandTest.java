package dev.svc.cli.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class PolicyVersionCommandTest {

  @Test
  void the_version_record_prints_in_its_field_order_in_every_format() {
    PolicyRun text = PolicyRun.in(Path.of("."), "version");
    PolicyRun json = PolicyRun.in(Path.of("."), "version", "-o", "json");
    PolicyRun yaml = PolicyRun.in(Path.of("."), "version", "-o", "yaml");

    assertThat(text.exit()).isZero();
    assertThat(text.out()).matches("(?s)version: +\\S.*\ncommit: .*\ncommitTime: .*\ndirty: .*\ngoVersion: .*\nplatform: .*\n");
    assertThat(json.out()).matches("(?s)\\{\n  \"version\": \".*\",\n  \"commit\": .*,\n  \"commitTime\": .*,\n"
        + "  \"dirty\": (true|false),\n  \"goVersion\": .*,\n  \"platform\": \".*\"\n}\n");
    assertThat(yaml.out()).matches("(?s)version: .*\ncommit: .*\ncommitTime: .*\ndirty: (true|false)\ngoVersion: .*\nplatform: .*\n");
  }
}
