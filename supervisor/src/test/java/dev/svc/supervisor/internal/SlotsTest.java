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
