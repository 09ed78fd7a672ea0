package dev.svc.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NearestTest {

  private static final List<String> KEYS = List.of("mesh.port", "mesh.hostname", "health.port");

  @Test
  void a_typo_finds_the_key() {
    assertThat(Nearest.to("mesh.prot", KEYS)).contains("mesh.port");
    assertThat(Nearest.to("MESH.HOSTNAM", KEYS)).contains("mesh.hostname");
  }

  @Test
  void a_distant_name_finds_nothing() {
    assertThat(Nearest.to("otel.endpoint", KEYS)).isEmpty();
  }

  @Test
  void a_known_name_is_not_a_typo() {
    assertThat(Nearest.to("Mesh.Port", KEYS)).isEmpty();
  }
}
