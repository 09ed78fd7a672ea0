package dev.svc.supervisor.internal;

import dev.svc.engine.Engine;
import dev.svc.engine.NoPolicyException;
import dev.svc.engine.Policy;
import dev.svc.supervisor.Recipe;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One place in a pool: an engine instance and the policies compiled in it, by the name they are
 * installed under. A stopped instance is replaced in the same slot.
 *
 * <p><b>Thread safety:</b> not thread-safe. A slot belongs to one thread at a time: the caller that
 * leased it, the installer rolling a recipe out to it, or the rebuilder; handing it over goes
 * through {@link Slots}' lock.
 */
public final class Slot {

  /**
   * A recipe whose run stopped the instance.
   *
   * @param policy the name it is installed under
   * @param recipeId its id
   * @param error what the run threw
   */
  public record Stop(String policy, long recipeId, RuntimeException error) {}

  /** A compiled policy and the id of the recipe that compiled it. */
  private record Held(long recipeId, Policy policy) {}

  private final int id;
  private Engine engine;
  private final Map<String, Held> policies = new HashMap<>();
  // The failure of each recipe that didn't compile here: what a call on that name gets instead.
  private final Map<String, RuntimeException> failures = new HashMap<>();
  // The generation of recipes this slot last compiled completely; 0 is before any.
  private long synced;
  // The instance's memory size memoryChange last answered; 0 for a fresh instance.
  private long reportedMemory;

  /**
   * A slot holding a new instance that compiled nothing yet.
   *
   * @param id the slot's number in its pool, from 0
   * @param engine the instance
   */
  public Slot(int id, Engine engine) {
    this.id = id;
    this.engine = engine;
  }

  /**
   * The slot's number in its pool.
   *
   * @return from 0 to the pool's size - 1
   */
  public int id() {
    return id;
  }

  /**
   * Whether the instance stopped: it must be rebuilt.
   *
   * @return true once any call on it stopped it
   */
  public boolean stopped() {
    return engine.stopped().isPresent();
  }

  /**
   * Whether the slot holds every recipe of {@code generation}: then a lease has nothing to catch up.
   *
   * @param generation the pool's current generation
   * @return true if the last complete sync was of that generation
   */
  public boolean isCurrent(long generation) {
    return synced == generation;
  }

  /**
   * Whether the slot holds a policy compiled under {@code name}, from the current recipe or an older
   * one.
   *
   * @param name the policy name in the pool
   * @return true if a call on the name finds a policy here
   */
  public boolean holds(String name) {
    return policies.containsKey(name);
  }

  /**
   * Brings the slot to {@code snapshot}: drops the policies no longer installed, and runs each recipe
   * whose policy it doesn't hold yet (or holds from an older recipe). A recipe that fails is noted
   * as this slot's answer for its name; one that stops the instance ends the sync. Marks the slot
   * current only if every recipe compiled.
   *
   * @param snapshot the recipes to hold
   * @param leftOut recipes not to run, by name, with the error to answer instead: those a rebuild
   *     gave up on
   * @return the recipe whose run stopped the instance, if one did
   */
  public Optional<Stop> sync(Recipes.Snapshot snapshot, Map<String, Stop> leftOut) {
    dropAllBut(snapshot);
    boolean complete = true;
    for (Map.Entry<String, Recipes.Installed> entry : snapshot.recipes().entrySet()) {
      String name = entry.getKey();
      Recipes.Installed recipe = entry.getValue();
      Stop gaveUp = leftOut.get(name);
      if (gaveUp != null && gaveUp.recipeId() == recipe.id()) {
        failures.put(name, gaveUp.error());
        continue;
      }
      Held held = policies.get(name);
      if (held != null && held.recipeId() == recipe.id()) {
        continue;
      }
      try {
        adopt(name, recipe.id(), build(recipe.recipe()));
      } catch (RuntimeException e) {
        failures.put(name, e);
        complete = false;
        if (stopped()) {
          return Optional.of(new Stop(name, recipe.id(), e));
        }
      }
    }
    if (complete) {
      synced = snapshot.generation();
    }
    return Optional.empty();
  }

  /**
   * Runs {@code recipe} in this slot's instance, to validate a new install.
   *
   * @param recipe the recipe
   * @return the policy it compiled
   * @throws RuntimeException whatever the recipe threw
   * @throws NullPointerException if the recipe returned null
   */
  public Policy build(Recipe recipe) {
    return Objects.requireNonNull(recipe.build(engine), "the recipe returned no policy");
  }

  /**
   * Keeps {@code policy}, compiled here by recipe {@code recipeId}, under {@code name}, in place of
   * any older one. If the slot was current at {@code before}, it is current at {@code after}: the
   * new recipe is the only difference.
   *
   * @param name the policy name in the pool
   * @param recipeId the recipe's id
   * @param policy the compiled policy
   * @param before the generation before the install
   * @param after the generation the install made
   */
  public void adopt(String name, long recipeId, Policy policy, long before, long after) {
    adopt(name, recipeId, policy);
    if (synced == before) {
      synced = after;
    }
  }

  /**
   * The policy installed under {@code name}.
   *
   * @param name the policy name in the pool
   * @return the policy compiled in this slot's instance
   * @throws RuntimeException the failure of that name's recipe in this slot, if it failed here
   * @throws NoPolicyException if nothing is installed under the name
   */
  public Policy policy(String name) {
    Held held = policies.get(name);
    if (held != null) {
      return held.policy();
    }
    RuntimeException failure = failures.get(name);
    if (failure != null) {
      throw failure;
    }
    throw new NoPolicyException(name);
  }

  /**
   * The instance's memory size, if it changed since this was last asked: after a call that grew it, or
   * first after a restart. Reading it doesn't enter the module, and works on a stopped instance.
   *
   * @return the size in bytes, or empty when unchanged
   */
  public OptionalLong memoryChange() {
    long now = engine.memorySize();
    if (now == reportedMemory) {
      return OptionalLong.empty();
    }
    reportedMemory = now;
    return OptionalLong.of(now);
  }

  /**
   * The slot's instance, for a call that uses no installed policy.
   *
   * @return the instance; it belongs to the slot, so don't close or keep it
   */
  public Engine engine() {
    return engine;
  }

  /**
   * Closes the instance and its policies, which keep an instance alive while open; the slot holds
   * nothing until {@link #restart}.
   */
  public void retire() {
    policies.values().forEach(held -> held.policy().close());
    policies.clear();
    failures.clear();
    synced = 0;
    engine.close();
  }

  /**
   * Puts a fresh instance in the retired slot.
   *
   * @param fresh the new instance, with nothing compiled in it
   */
  public void restart(Engine fresh) {
    retire();
    engine = fresh;
    reportedMemory = 0;
  }

  private void adopt(String name, long recipeId, Policy policy) {
    Held old = policies.put(name, new Held(recipeId, policy));
    failures.remove(name);
    if (old != null) {
      old.policy().close();
    }
  }

  private void dropAllBut(Recipes.Snapshot snapshot) {
    failures.keySet().retainAll(snapshot.recipes().keySet());
    Iterator<Map.Entry<String, Held>> held = policies.entrySet().iterator();
    while (held.hasNext()) {
      Map.Entry<String, Held> entry = held.next();
      if (!snapshot.recipes().containsKey(entry.getKey())) {
        entry.getValue().policy().close();
        held.remove();
      }
    }
  }
}
