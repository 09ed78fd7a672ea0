package dev.svc.engine.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link Nearest}: the bindings' did-you-mean (bindings.md §14). */
class NearestTest {

  @ParameterizedTest(name = "{0} / {1}: {2}")
  @CsvSource({
    "'', '', 0", "kitten, sitting, 3", "same, same, 0", "ä, a, 1", "😀, a, 1", "ab, ba, 2"
  })
  void distanceCountsCodePointEdits(String a, String b, int distance) {
    assertThat(Nearest.distance(a, b)).isEqualTo(distance);
    assertThat(Nearest.distance(b, a)).isEqualTo(distance);
  }

  @Test
  void theNearestCloseCandidateIsSuggested() {
    assertThat(Nearest.nearest("unroutd", List.of("routine", "unrouted"))).contains("unrouted");
    assertThat(Nearest.nearest("a", List.of("b"))).contains("b");
    assertThat(Nearest.nearest("Unrouted", List.of("unrouted"))).contains("unrouted");
  }

  @Test
  void ofEquallyCloseCandidatesTheFirstWins() {
    assertThat(Nearest.nearest("cat", List.of("bat", "hat"))).contains("bat");
  }

  @Test
  void nothingIsSuggestedWhenNothingIsClose() {
    assertThat(Nearest.nearest("zzzzzz", List.of("routine", "unrouted"))).isEmpty();
    assertThat(Nearest.nearest("", List.of())).isEmpty();
    assertThat(Nearest.nearest("abc", List.of("xyz"))).isEmpty();
  }
}
