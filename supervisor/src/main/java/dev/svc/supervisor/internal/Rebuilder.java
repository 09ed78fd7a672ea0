package dev.svc.supervisor.internal;

import dev.svc.engine.Engine;
import dev.svc.engine.EngineModule;
import dev.svc.engine.Isolation;
import dev.svc.engine.Limits;
import dev.svc.supervisor.PoolListener;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * Rebuilds the slots whose instance stopped, each on a background thread
 * ({@code svc-pool-rebuild-N}) while the pool serves with the others: a fresh instance, every
 * installed recipe run in it again, and again for installs and removals that happened meanwhile,
 * before the slot goes back into service.
 *
 * <p>A fresh instance that doesn't start, or that a recipe stops while being reinstalled, is thrown
 * away and the rebuild tries again after a pause, 50 ms at first and doubling up to 2 s. A recipe
 * that stops three fresh instances in one rebuild is left out of it, and listed by
 * {@link Recipes#skipped()}.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class Rebuilder {

  static final Duration FIRST_PAUSE = Duration.ofMillis(50);
  static final Duration LONGEST_PAUSE = Duration.ofSeconds(2);
  static final int STOPS_BEFORE_LEAVING_OUT = 3;

  private final EngineModule module;
  private final Limits limits;
  private final Isolation isolation;
  private final Recipes recipes;
  private final Slots slots;
  private final PoolListener listener;
  private final PoolThreads threadFactory = new PoolThreads("svc-pool-rebuild-");
  private final ExecutorService threads = Executors.newCachedThreadPool(threadFactory);

  /**
   * A rebuilder for the slots of one pool.
   *
   * @param module what fresh instances start from
   * @param limits their limits
   * @param isolation where they run
   * @param recipes what to install in them
   * @param slots where rebuilt slots go back to
   * @param listener told of every rebuild and failed try
   */
  public Rebuilder(
      EngineModule module, Limits limits, Isolation isolation, Recipes recipes, Slots slots, PoolListener listener) {
    this.module = module;
    this.limits = limits;
    this.isolation = isolation;
    this.recipes = recipes;
    this.slots = slots;
    this.listener = listener;
  }

  /**
   * Takes a leased slot whose instance stopped and rebuilds it in the background; the caller goes on
   * at once. If no thread can be started for it, the rebuild runs on the caller's thread instead, so
   * the pool never loses the slot.
   *
   * @param slot the slot; no longer the caller's
   */
  public void rebuild(Slot slot) {
    long since = System.nanoTime();
    if (!slots.startRebuild(slot)) {
      return;
    }
    Runnable task = () -> run(slot, since);
    try {
      threads.execute(task);
    } catch (RejectedExecutionException | OutOfMemoryError noThread) {
      task.run();
    }
  }

  /**
   * Lets the rebuilds under way notice the closed pool and end, and waits until their threads have
   * ended. Call after {@link Slots#close()}.
   */
  public void close() {
    threads.shutdown();
    threadFactory.awaitEnd();
  }

  private void run(Slot slot, long since) {
    slot.retire();
    Map<Long, Integer> stops = new HashMap<>();
    Map<String, Slot.Stop> leftOut = new HashMap<>();
    Duration pause = FIRST_PAUSE;
    while (!slots.isClosed()) {
      if (attempt(slot, stops, leftOut)) {
        if (slots.endRebuild(slot)) {
          listener.rebuilt(Duration.ofNanos(System.nanoTime() - since));
        }
        return;
      }
      if (!slots.pause(pause)) {
        break;
      }
      pause = nextPause(pause);
    }
    slots.endRebuild(slot);
  }

  /** The pause after {@code pause}: twice as long, at most {@link #LONGEST_PAUSE}. */
  static Duration nextPause(Duration pause) {
    Duration doubled = pause.multipliedBy(2);
    return doubled.compareTo(LONGEST_PAUSE) < 0 ? doubled : LONGEST_PAUSE;
  }

  // One try: true if the slot holds a working instance with the current recipes.
  private boolean attempt(Slot slot, Map<Long, Integer> stops, Map<String, Slot.Stop> leftOut) {
    try {
      slot.restart(Engine.create(module, limits, isolation));
      while (true) {
        Recipes.Snapshot snapshot = recipes.snapshot();
        Optional<Slot.Stop> stop = slot.sync(snapshot, leftOut);
        if (stop.isPresent()) {
          countStop(stop.get(), stops, leftOut);
          slots.countReplaced();
          slot.retire();
          listener.rebuildFailed(stop.get().error());
          return false;
        }
        if (recipes.generation() == snapshot.generation()) {
          return true;
        }
      }
    } catch (RuntimeException | Error e) {
      // Engine.create failed, or a recipe threw an Error: this instance is lost, the next try may work.
      slot.retire();
      listener.rebuildFailed(e);
      return false;
    }
  }

  private void countStop(Slot.Stop stop, Map<Long, Integer> stops, Map<String, Slot.Stop> leftOut) {
    int count = stops.merge(stop.recipeId(), 1, Integer::sum);
    if (count >= STOPS_BEFORE_LEAVING_OUT) {
      leftOut.put(stop.policy(), stop);
      recipes.skip(stop.policy(), stop.recipeId(), stop.error().getMessage());
    }
  }
}
