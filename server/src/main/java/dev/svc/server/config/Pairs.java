package dev.svc.server.config;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code name=value,name2=value2} syntax of the keys that take pairs as text: the labels of
 * {@code clusterInfo.labels} ({@code --labels}, access-server spec §2.3) and the policies of
 * {@code policies.install} ({@code --install}, where a bare {@code access.main} stands for
 * {@code access.main=access.main}), and the plain names of {@code operator.allowedRoles}. One
 * reading for all, so they refuse the same mistakes with the same words.
 *
 * <p>Entries are separated by commas; spaces around an entry, a name or a value don't count. An entry
 * that is empty, has no name or no value, or repeats a name is refused: each is a typo more likely than
 * an intent.
 *
 * <p><b>Thread safety:</b> stateless and thread-safe.
 */
final class Pairs {

  /**
   * What the entries of one key are.
   *
   * @param noun what one entry is, for messages: {@code label}, {@code policy}
   * @param bareNames whether an entry without {@code =} stands for itself as name and value
   */
  record Form(String noun, boolean bareNames) {}

  /** An entry that can't be read; its message quotes the entry. */
  static final class Malformed extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message);
    }
  }

  private Pairs() {}

  /**
   * The entries of {@code text}, split at its commas. Text without anything but spaces has none.
   *
   * @param text such as {@code env=prod, team=payments}
   * @return the entries, in order, not yet read
   */
  static List<String> entries(String text) {
    return text.isBlank() ? List.of() : Arrays.asList(text.split(",", -1));
  }

  /**
   * The pairs {@code entries} write, in order.
   *
   * @param entries each {@code name=value}, or a bare name if {@code form} allows it
   * @param form what the entries are
   * @return name to value, in the entries' order
   * @throws Malformed for the first entry that is empty, has no {@code =} (unless {@code form} takes
   *     bare names), no name or no value, or repeats a name
   */
  static Map<String, String> read(List<String> entries, Form form) {
    Map<String, String> pairs = new LinkedHashMap<>();
    for (int i = 0; i < entries.size(); i++) {
      String entry = entry(entries, i);
      int equals = entry.indexOf('=');
      if (equals < 0 && !form.bareNames()) {
        throw new Malformed("`" + entry + "` isn't a " + form.noun() + " written name=value");
      }
      String name = (equals < 0 ? entry : entry.substring(0, equals)).strip();
      String value = (equals < 0 ? entry : entry.substring(equals + 1)).strip();
      if (name.isEmpty()) {
        throw new Malformed("`" + entry + "` gives no name");
      }
      if (value.isEmpty()) {
        throw new Malformed("`" + entry + "` gives no value");
      }
      if (pairs.putIfAbsent(name, value) != null) {
        throw twice(form.noun(), name);
      }
    }
    return pairs;
  }

  /**
   * The names {@code entries} list, such as the roles of {@code operator.allowedRoles}, in order.
   *
   * @param entries each a name
   * @param noun what one name is, for messages: {@code role}
   * @return the names, stripped of spaces around them
   * @throws Malformed for the first entry that is empty or repeats a name
   */
  static List<String> names(List<String> entries, String noun) {
    Set<String> names = new LinkedHashSet<>();
    for (int i = 0; i < entries.size(); i++) {
      String name = entry(entries, i);
      if (!names.add(name)) {
        throw twice(noun, name);
      }
    }
    return List.copyOf(names);
  }

  private static String entry(List<String> entries, int index) {
    String entry = entries.get(index).strip();
    if (entry.isEmpty()) {
      throw new Malformed("entry " + (index + 1) + " of " + entries.size() + " is empty");
    }
    return entry;
  }

  private static Malformed twice(String noun, String name) {
    return new Malformed("the " + noun + " `" + name + "` is given twice");
  }
}
