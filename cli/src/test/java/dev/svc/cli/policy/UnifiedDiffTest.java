package dev.svc.cli.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UnifiedDiffTest {

  @Test
  void equal_texts_have_no_diff() {
    assertThat(UnifiedDiff.of("a.orig", "a", "x\n", "x\n")).isEmpty();
  }

  @Test
  void distant_changes_are_separate_hunks_with_three_lines_of_context() {
    String before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
    String after = "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n";

    assertThat(UnifiedDiff.of("f.orig", "f", before, after)).isEqualTo("""
        --- f.orig
        +++ f
        @@ -1,5 +1,5 @@
         1
        -2
        +TWO
         3
         4
         5
        @@ -10,3 +10,4 @@
         10
         11
         12
        +13
        """);
  }
}
