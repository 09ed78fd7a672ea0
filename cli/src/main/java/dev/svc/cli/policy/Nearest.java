package dev.svc.cli.policy;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The did-you-mean of tooling spec §1.5: the closest candidate by optimal string alignment. */
final class Nearest {

  private Nearest() {}

  /** The candidate {@code name} was probably meant to be; empty when none is close or it is exact. */
  static Optional<String> to(String name, List<String> candidates) {
    if (candidates.contains(name)) {
      return Optional.empty();
    }
    int limit = Math.max(1, name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length / 3);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int d = distance(name.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    return bestDistance <= limit ? Optional.ofNullable(best) : Optional.empty();
  }

  /** {@code did you mean "x"?} for the closest candidate, if any. */
  static Optional<String> hint(String name, List<String> candidates) {
    return to(name, candidates).map(near -> "did you mean \"" + near + "\"?");
  }

  private static int distance(String a, String b) {
    int[] x = a.codePoints().toArray();
    int[] y = b.codePoints().toArray();
    int[][] d = new int[x.length + 1][y.length + 1];
    for (int i = 0; i <= x.length; i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= y.length; j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= x.length; i++) {
      for (int j = 1; j <= y.length; j++) {
        int cost = x[i - 1] == y[j - 1] ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1]) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[x.length][y.length];
  }
}
