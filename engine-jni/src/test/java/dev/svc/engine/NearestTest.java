package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link Nearest}: the engine's did-you-mean (tooling.md §1.5) and the bindings' (bindings.md §14). */
class NearestTest {

  private static final List<String> KEYS = List.of("mesh.port", "mesh.hostname", "health.port");

  @ParameterizedTest(name = "{0} / {1}: {2}, {3} by the engine's rule")
  @CsvSource({
    "'', '', 0, 0", "kitten, sitting, 3, 3", "same, same, 0, 0", "ä, a, 1, 1", "😀, a, 1, 1", "ab, ba, 2, 1",
    "Mesh, mesh, 1, 0"
  })
  void distancesCountCodePointEditsAndOnlyTheEngineCountsASwapAsOneAndIgnoresCase(
      String a, String b, int bindings, int engine) {
    assertThat(Nearest.BINDINGS.distance(a, b)).isEqualTo(bindings);
    assertThat(Nearest.BINDINGS.distance(b, a)).isEqualTo(bindings);
    assertThat(Nearest.ENGINE.distance(a, b)).isEqualTo(engine);
    assertThat(Nearest.ENGINE.distance(b, a)).isEqualTo(engine);
  }

  @Test
  void theEngineRuleFindsATypoWhateverItsCase() {
    assertThat(Nearest.ENGINE.to("mesh.prot", KEYS)).contains("mesh.port");
    assertThat(Nearest.ENGINE.to("MESH.HOSTNAM", KEYS)).contains("mesh.hostname");
  }

  @Test
  void theEngineRuleFindsNothingForADistantOrAKnownName() {
    assertThat(Nearest.ENGINE.to("otel.endpoint", KEYS)).isEmpty();
    assertThat(Nearest.ENGINE.to("Mesh.Port", KEYS)).as("a known name is not a typo").isEmpty();
  }

  @Test
  void theEngineRuleAllowsAThirdOfTheNamesBytes() {
    assertThat(Nearest.ENGINE.to("ab", List.of("xb"))).as("at least one edit").contains("xb");
    assertThat(Nearest.ENGINE.to("abcdef", List.of("abxyef"))).contains("abxyef");
    assertThat(Nearest.ENGINE.to("abcdef", List.of("axyzef"))).isEmpty();
  }

  @Test
  void theBindingsRuleSuggestsTheNearestCloseCandidate() {
    assertThat(Nearest.BINDINGS.to("unroutd", List.of("routine", "unrouted"))).contains("unrouted");
    assertThat(Nearest.BINDINGS.to("a", List.of("b"))).contains("b");
    assertThat(Nearest.BINDINGS.to("Unrouted", List.of("unrouted"))).contains("unrouted");
  }

  @Test
  void ofEquallyCloseCandidatesTheFirstWins() {
    assertThat(Nearest.BINDINGS.to("cat", List.of("bat", "hat"))).contains("bat");
    assertThat(Nearest.ENGINE.to("cat", List.of("bat", "hat"))).contains("bat");
  }

  @Test
  void theBindingsRuleSuggestsNothingWhenNothingIsClose() {
    assertThat(Nearest.BINDINGS.to("zzzzzz", List.of("routine", "unrouted"))).isEmpty();
    assertThat(Nearest.BINDINGS.to("", List.of())).isEmpty();
    assertThat(Nearest.BINDINGS.to("abc", List.of("xyz"))).isEmpty();
  }
}
