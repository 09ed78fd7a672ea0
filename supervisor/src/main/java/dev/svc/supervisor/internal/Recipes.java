package dev.svc.supervisor.internal;

import dev.svc.supervisor.Recipe;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The recipes installed in a pool, by name, under a generation number that every install and removal
 * raises. A slot that compiled everything of the current generation has nothing to catch up on.
 *
 * <p>Installs are rare and reads happen on every call, so each change publishes a new immutable
 * {@link Snapshot} that readers take without locking.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class Recipes {

  /**
   * One installed recipe.
   *
   * @param id unique in the pool: a slot holding a policy of another id must compile this one
   * @param recipe how to compile the policy
   */
  public record Installed(long id, Recipe recipe) {}

  /**
   * The installed recipes at one generation.
   *
   * @param generation the generation
   * @param recipes by name, unmodifiable
   */
  public record Snapshot(long generation, SortedMap<String, Installed> recipes) {}

  private final ReentrantLock lock = new ReentrantLock();
  private final TreeMap<String, String> skipped = new TreeMap<>(); // guarded by lock
  private long nextId = 1; // guarded by lock
  // Replaced (under the lock) on every change, read without the lock.
  private volatile Snapshot current = new Snapshot(0, Collections.emptySortedMap());

  /**
   * The current generation.
   *
   * @return the generation; 0 before the first install
   */
  public long generation() {
    return current.generation();
  }

  /**
   * The installed recipes now.
   *
   * @return the recipes with their generation
   */
  public Snapshot snapshot() {
    return current;
  }

  /**
   * Whether a recipe is installed under {@code name} now.
   *
   * @param name the policy name in the pool
   * @return true if one is
   */
  public boolean contains(String name) {
    return current.recipes().containsKey(name);
  }

  /**
   * Installs {@code recipe} under {@code name}, replacing any recipe of that name, and forgets that
   * rebuilds skipped the name.
   *
   * @param name the policy name in the pool
   * @param recipe how to compile it
   * @return the installed recipe with its new id
   */
  public Installed put(String name, Recipe recipe) {
    lock.lock();
    try {
      Installed entry = new Installed(nextId++, recipe);
      TreeMap<String, Installed> changed = new TreeMap<>(current.recipes());
      changed.put(name, entry);
      publish(changed);
      skipped.remove(name);
      return entry;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Removes the recipe named {@code name}, and forgets that rebuilds skipped it.
   *
   * @param name the policy name in the pool
   * @return whether there was one
   */
  public boolean remove(String name) {
    lock.lock();
    try {
      skipped.remove(name);
      if (!current.recipes().containsKey(name)) {
        return false;
      }
      TreeMap<String, Installed> changed = new TreeMap<>(current.recipes());
      changed.remove(name);
      publish(changed);
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The installed names.
   *
   * @return the names, sorted
   */
  public List<String> names() {
    return List.copyOf(current.recipes().keySet());
  }

  /**
   * How many recipes are installed.
   *
   * @return the count
   */
  public int size() {
    return current.recipes().size();
  }

  /**
   * Notes that a rebuild left out the recipe {@code id} of {@code name} because it kept stopping
   * fresh instances; ignored if that recipe was replaced or removed meanwhile.
   *
   * @param name the policy name
   * @param id the recipe's id
   * @param error the text of its last failure
   */
  public void skip(String name, long id, String error) {
    lock.lock();
    try {
      Installed entry = current.recipes().get(name);
      if (entry != null && entry.id() == id) {
        skipped.put(name, error);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * The recipes rebuilds left out, until they are installed again or removed.
   *
   * @return policy name to the text of its last failure, sorted by name, unmodifiable
   */
  public SortedMap<String, String> skipped() {
    lock.lock();
    try {
      return Collections.unmodifiableSortedMap(new TreeMap<>(skipped));
    } finally {
      lock.unlock();
    }
  }

  // INVARIANT: runs under the lock.
  private void publish(TreeMap<String, Installed> recipes) {
    current = new Snapshot(current.generation() + 1, Collections.unmodifiableSortedMap(recipes));
  }
}
