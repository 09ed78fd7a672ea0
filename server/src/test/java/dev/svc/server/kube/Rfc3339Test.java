package dev.svc.server.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Times are written in UTC to the second and read with any offset (spec §4.1). */
class Rfc3339Test {

  @Test
  void times_are_written_in_utc_to_the_second() {
    assertThat(Rfc3339.format(Instant.parse("2025-03-04T09:15:00.987654Z"))).isEqualTo("2025-03-04T09:15:00Z");
  }

  @Test
  void times_with_any_offset_are_read() {
    assertThat(Rfc3339.parse("2025-03-04T10:15:00+01:00")).contains(Instant.parse("2025-03-04T09:15:00Z"));
    assertThat(Rfc3339.parse("2025-03-04T09:15:00.5Z")).contains(Instant.parse("2025-03-04T09:15:00.5Z"));
  }

  @Test
  void anything_else_is_no_time() {
    assertThat(Rfc3339.parse("")).isEmpty();
    assertThat(Rfc3339.parse("yesterday")).isEmpty();
    assertThat(Rfc3339.parse("2025-03-04 09:15:00")).isEmpty();
    assertThat(Rfc3339.parse(null)).isEmpty();
  }
}
