package dev.svc.supervisor.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.engine.BusyException;
import dev.svc.engine.Engine;
import dev.svc.engine.EngineModule;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Slots are leased first come, first served. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SlotsTest {

  private final EngineModule module = EngineModule.bundled();
  private final Engine engine = Engine.create(module);
  private final Slot only = new Slot(0, engine);
  private final Slots slots = new Slots(List.of(only));

  @AfterEach
  void stop() {
    engine.close();
    module.close();
  }

  @Test
  void aCallerTakesAnIdleSlotAtOnceWhenNobodyWaits() {
    assertThat(slots.take(Optional.of(Duration.ZERO))).isSameAs(only);
  }

  @Test
  void aSlotGivenBackGoesToTheCallerWaitingNotToTheOneThatGaveItBack() throws Exception {
    Slot mine = slots.take(Optional.empty());
    CompletableFuture<Slot> waited = waitInLine(Duration.ofSeconds(20));

    slots.giveBack(mine);

    assertThatThrownBy(() -> slots.take(Optional.of(Duration.ZERO))).isInstanceOf(BusyException.class);
    assertThat(waited.get(20, TimeUnit.SECONDS)).isSameAs(mine);
  }

  @Test
  void aWaiterThatGivesUpLeavesTheLineAndTheNextCallerIsServed() throws Exception {
    Slot mine = slots.take(Optional.empty());
    CompletableFuture<Slot> gaveUp = waitInLine(Duration.ofMillis(50));

    assertThatThrownBy(() -> gaveUp.get(20, TimeUnit.SECONDS)).hasCauseInstanceOf(BusyException.class);
    slots.giveBack(mine);
    assertThat(slots.take(Optional.of(Duration.ZERO))).isSameAs(mine);
  }

  @Test
  void takeIfIdleGivesTheSlotAskedForWhenItIsIdleElseTheMostRecentlyUsed() {
    Slot other = new Slot(1, engine);
    Slots two = new Slots(List.of(only, other));
    Slot recent = two.take(Optional.empty());
    two.giveBack(recent);
    Slot older = recent == only ? other : only;

    Slot asked = two.takeIfIdle(older.id()).orElseThrow();
    assertThat(asked).as("the slot asked for, though not the most recently used").isSameAs(older);
    assertThat(two.takeIfIdle(older.id())).as("the slot asked for is taken: the other one").contains(recent);
    assertThat(two.takeIfIdle(-1)).as("none is idle").isEmpty();
  }

  @Test
  void takeIfIdleLeavesAnIdleSlotToTheCallerWaitingInLine() throws Exception {
    Slot mine = slots.take(Optional.empty());
    CompletableFuture<Slot> waited = waitInLine(Duration.ofSeconds(20));

    slots.giveBack(mine);

    assertThat(slots.takeIfIdle(0)).isEmpty();
    assertThat(waited.get(20, TimeUnit.SECONDS)).isSameAs(only);
  }

  @Test
  void takeIfIdleLeavesAnIdleSlotToARollOutWaitingForOne() throws Exception {
    Slot other = new Slot(1, engine);
    Slots two = new Slots(List.of(only, other));
    Slot first = two.takeIfIdle(0).orElseThrow();
    AtomicReference<Thread> rollOut = new AtomicReference<>();
    CompletableFuture<Optional<Slot>> rolled = CompletableFuture.supplyAsync(() -> {
      rollOut.set(Thread.currentThread());
      return two.takeWhenIdle(0);
    });
    while (rollOut.get() == null || rollOut.get().getState() != Thread.State.WAITING) {
      Thread.onSpinWait();
    }

    assertThat(two.takeIfIdle(1)).as("slot 1 is idle, but a roll-out waits").isEmpty();
    two.giveBack(first);
    assertThat(rolled.get(20, TimeUnit.SECONDS)).contains(only);
    assertThat(two.takeIfIdle(1)).contains(other);
  }

  @Test
  void takeIfIdleOnAClosedPoolFails() {
    slots.close();

    assertThatThrownBy(() -> slots.takeIfIdle(0)).isInstanceOf(IllegalStateException.class)
        .hasMessage("the Pool is closed; create a new one");
  }

  /** A caller waiting in take, once it waits. */
  private CompletableFuture<Slot> waitInLine(Duration timeout) {
    AtomicReference<Thread> waiter = new AtomicReference<>();
    CompletableFuture<Slot> waited = CompletableFuture.supplyAsync(() -> {
      waiter.set(Thread.currentThread());
      return slots.take(Optional.of(timeout));
    });
    while (waiter.get() == null || waiter.get().getState() != Thread.State.TIMED_WAITING) {
      if (waited.isDone()) {
        return waited;
      }
      Thread.onSpinWait();
    }
    return waited;
  }
}
