package dev.svc.server.config;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * The product's did-you-mean for Java: the known name nearest to a mistyped one, by case-insensitive
 * edit distance counting a swap of two neighbours as one edit, within about a third of the name's
 * length (the same rule as the engine's {@code nearest}).
 *
 * <p><b>Thread safety:</b> stateless and thread-safe.
 */
public final class Nearest {

  private Nearest() {}

  /**
   * The candidate {@code name} was most likely meant to be.
   *
   * @param name the unknown name as written
   * @param candidates the known names
   * @return the nearest candidate within the limit, the first of equals in {@code candidates}' order;
   *     empty when none is near enough or {@code name} is itself a candidate
   */
  public static Optional<String> to(String name, Collection<String> candidates) {
    String wanted = name.toLowerCase(Locale.ROOT);
    int limit = Math.max(1, wanted.length() / 3);
    String best = null;
    int bestDistance = limit + 1;
    for (String candidate : candidates) {
      int distance = distance(wanted, candidate.toLowerCase(Locale.ROOT));
      if (distance == 0) {
        return Optional.empty();
      }
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return Optional.ofNullable(best);
  }

  // Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
  private static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
