package dev.svc.engine.internal;

import java.util.List;
import java.util.Optional;

/**
 * The library's did-you-mean: the candidate nearest to a misspelled name, by the rule of the
 * reference bindings (bindings.md §14). That rule is plain Levenshtein distance over code points,
 * case-sensitive and without transpositions; it differs on purpose from the engine's own
 * nearest-name rule, so that a host's messages read as the reference bindings' do.
 *
 * <p><b>Thread safety:</b> stateless and thread-safe.
 */
public final class Nearest {

  private Nearest() {}

  /**
   * The candidate closest to {@code name}, if one is close enough: its distance must be below
   * {@code max(2, length / 3) + 1}, length in code points. Of equally close candidates the first
   * wins.
   *
   * @param name the misspelled name
   * @param candidates the names that exist, in the order to prefer them
   * @return the nearest candidate, or empty when none is close
   */
  public static Optional<String> nearest(String name, List<String> candidates) {
    String best = null;
    int bar = Math.max(2, name.codePointCount(0, name.length()) / 3) + 1;
    for (String candidate : candidates) {
      int d = distance(name, candidate);
      if (d < bar) {
        best = candidate;
        bar = d;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * The Levenshtein distance between two texts: the fewest code points to insert, delete or
   * replace to turn one into the other.
   *
   * @param a one text
   * @param b the other
   * @return the distance, from 0
   */
  public static int distance(String a, String b) {
    int[] left = a.codePoints().toArray();
    int[] right = b.codePoints().toArray();
    int[] row = new int[right.length + 1];
    for (int j = 0; j <= right.length; j++) {
      row[j] = j;
    }
    for (int i = 1; i <= left.length; i++) {
      int diagonal = row[0];
      row[0] = i;
      for (int j = 1; j <= right.length; j++) {
        int above = row[j];
        int replace = diagonal + (left[i - 1] == right[j - 1] ? 0 : 1);
        row[j] = Math.min(Math.min(above + 1, row[j - 1] + 1), replace);
        diagonal = above;
      }
    }
    return row[right.length];
  }
}
