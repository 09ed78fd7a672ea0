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
  private final TreeMap<String, Installed> installed = new TreeMap<>(); // guarded by lock
  private final TreeMap<String, String> skipped = new TreeMap<>(); // guarded by lock
  private long nextId = 1; // guarded by lock
  // Written under the lock; read without it on every lease, the fast path.
  private volatile long generation;

  /**
   * The current generation, without locking.
   *
   * @return the generation; 0 before the first install
   */
  public long generation() {
    return generation;
  }

  /**
   * The installed recipes now.
   *
   * @return a copy with its generation
   */
  public Snapshot snapshot() {
    lock.lock();
    try {
      return new Snapshot(generation, Collections.unmodifiableSortedMap(new TreeMap<>(installed)));
    } finally {
      lock.unlock();
    }
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
      installed.put(name, entry);
      skipped.remove(name);
      generation++;
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
      if (installed.remove(name) == null) {
        return false;
      }
      generation++;
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
    lock.lock();
    try {
      return List.copyOf(installed.keySet());
    } finally {
      lock.unlock();
    }
  }

  /**
   * How many recipes are installed.
   *
   * @return the count
   */
  public int size() {
    lock.lock();
    try {
      return installed.size();
    } finally {
      lock.unlock();
    }
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
      Installed entry = installed.get(name);
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
}
