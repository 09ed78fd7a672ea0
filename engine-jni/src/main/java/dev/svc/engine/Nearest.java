package dev.svc.engine;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * svc's did-you-mean: the known name nearest to a mistyped one. The specification fixes two rules, so
 * that each message reads as its reference does; both live here, beside each other.
 *
 * <pre>{@code
 * Nearest.ENGINE.to("mesh.prot", List.of("mesh.port", "mesh.hostname")); // Optional[mesh.port]
 * }</pre>
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public enum Nearest {

  /**
   * The engine's rule (tooling.md §1.5), for names in the engine's and the server's messages, such as
   * configuration keys: the optimal string alignment distance (insert, delete, substitute, or swap
   * two neighbours, each one edit) between the lower-cased code points, at most
   * {@code max(1, length / 3)} with the length in UTF-8 bytes. A candidate equal to the name but for
   * case means the name is no typo, and nothing is suggested.
   */
  ENGINE(true, true, true),

  /**
   * The bindings' rule (bindings.md §14), for the reasons of a decision: the Levenshtein distance
   * (no swaps) between the code points as written, at most {@code max(2, length / 3)} with the length
   * in code points. A candidate equal to the name is suggested like any other.
   */
  BINDINGS(false, false, false);

  private final boolean ignoresCase;
  private final boolean swapIsOneEdit;
  private final boolean knownNameIsNoTypo;

  Nearest(boolean ignoresCase, boolean swapIsOneEdit, boolean knownNameIsNoTypo) {
    this.ignoresCase = ignoresCase;
    this.swapIsOneEdit = swapIsOneEdit;
    this.knownNameIsNoTypo = knownNameIsNoTypo;
  }

  /**
   * The candidate {@code name} most likely stands for.
   *
   * @param name the name as written
   * @param candidates the known names, in the order to prefer them
   * @return the nearest candidate within the rule's limit, the first of equally near ones; empty when
   *     none is near enough (or, by the engine's rule, when {@code name} is a candidate)
   */
  public Optional<String> to(String name, Collection<String> candidates) {
    int[] wanted = codePoints(name);
    String best = null;
    int bestDistance = limit(name, wanted.length) + 1;
    for (String candidate : candidates) {
      int distance = distance(wanted, codePoints(candidate));
      if (distance == 0 && knownNameIsNoTypo) {
        return Optional.empty();
      }
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * The rule's distance between two texts: how many edits turn one into the other.
   *
   * @param a one text
   * @param b the other
   * @return the distance, from 0
   */
  public int distance(String a, String b) {
    return distance(codePoints(a), codePoints(b));
  }

  private int limit(String name, int codePoints) {
    return ignoresCase
        ? Math.max(1, name.getBytes(StandardCharsets.UTF_8).length / 3)
        : Math.max(2, codePoints / 3);
  }

  private int[] codePoints(String text) {
    return (ignoresCase ? text.toLowerCase(Locale.ROOT) : text).codePoints().toArray();
  }

  // Three rows of the edit table, so memory grows with one text only, however long the other.
  private int distance(int[] a, int[] b) {
    int[] twoAbove = new int[b.length + 1];
    int[] above = new int[b.length + 1];
    int[] row = new int[b.length + 1];
    for (int j = 0; j <= b.length; j++) {
      above[j] = j;
    }
    for (int i = 1; i <= a.length; i++) {
      row[0] = i;
      for (int j = 1; j <= b.length; j++) {
        int substitute = above[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
        row[j] = Math.min(Math.min(above[j] + 1, row[j - 1] + 1), substitute);
        if (swapIsOneEdit && i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
          row[j] = Math.min(row[j], twoAbove[j - 2] + 1);
        }
      }
      int[] spare = twoAbove;
      twoAbove = above;
      above = row;
      row = spare;
    }
    return above[b.length];
  }
}
