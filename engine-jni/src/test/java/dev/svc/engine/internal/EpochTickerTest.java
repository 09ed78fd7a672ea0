package dev.svc.engine.internal;

import static dev.svc.engine.internal.BridgeFixture.UNLIMITED;
import static dev.svc.engine.internal.BridgeFixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link EpochTicker}: how a hard deadline becomes an epoch deadline in 2 ms ticks, and a ticker that
 * ticks whenever a call is watched, however watches come and go. A ticker that slept through a watch
 * would let a looping call run for ever, so each test is bounded by a timeout, never timed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EpochTickerTest {

  private BridgeFixture.Loaded loops;
  private EpochTicker ticker;

  @BeforeEach
  void start() {
    loops = new BridgeFixture.Loaded("bridge_abi", true, false, 0, 0);
    ticker = new EpochTicker(loops.engine);
  }

  @AfterEach
  void stop() {
    ticker.close();
    loops.close();
  }

  /** A call that loops for ever under a watch and a {@code deadline}: how it ended. */
  private GuestTrap.Kind watchedLoop(Duration deadline) {
    long instance = loops.instance(request -> request);
    ticker.watch();
    try {
      return catchThrowableOfType(
              GuestTrap.class, () -> Native.call(instance, bytes("L"), EpochTicker.ticksFor(deadline), UNLIMITED))
          .kind();
    } finally {
      ticker.unwatch();
      Native.instanceFree(instance);
    }
  }

  private void awaitParked() {
    while (!ticker.parked()) {
      Thread.onSpinWait();
    }
  }

  @Test
  void theFirstWatchStartsTheTicksThatEndALoopingCall() {
    assertThat(ticker.parked()).isFalse();

    assertThat(watchedLoop(Duration.ofMillis(10))).isEqualTo(GuestTrap.Kind.INTERRUPT);
  }

  @Test
  void withoutWatchesTheTickerParksAndTheNextWatchWakesIt() {
    watchedLoop(Duration.ofMillis(1));
    awaitParked();

    assertThat(watchedLoop(Duration.ofMillis(10))).isEqualTo(GuestTrap.Kind.INTERRUPT);
    awaitParked();
  }

  @Test
  void aWatchedCallKeepsTheTicksGoingPastTheLinger() {
    Duration pastLinger = EpochTicker.LINGER.multipliedBy(3);

    assertThat(watchedLoop(pastLinger)).isEqualTo(GuestTrap.Kind.INTERRUPT);
  }

  @Test
  void watchesFromManyThreadsAtOnceNeverLeaveALaterWatchUnticked() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      for (int round = 0; round < 5; round++) {
        List<Future<?>> hammering = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
          hammering.add(
              threads.submit(
                  () -> {
                    for (int i = 0; i < 20_000; i++) {
                      ticker.watch();
                      ticker.unwatch();
                    }
                  }));
        }
        for (Future<?> done : hammering) {
          done.get();
        }

        assertThat(watchedLoop(Duration.ofMillis(4))).as("round %d", round).isEqualTo(GuestTrap.Kind.INTERRUPT);
        awaitParked();
      }
    } finally {
      threads.shutdownNow();
    }
  }

  @ParameterizedTest(name = "{0} ns -> {1} ticks")
  @CsvSource({
    "0, 1",
    "-5, 1",
    "1, 2",
    "2000000, 2",
    "2000001, 3",
    "100000000, 51",
    "9223372036854775807, 4611686018429",
  })
  void ticksCoverTheDeadlinePlusTheTickInProgress(long nanos, long ticks) {
    assertThat(EpochTicker.ticksFor(Duration.ofNanos(nanos))).isEqualTo(ticks);
  }

  @ParameterizedTest(name = "{0} days")
  @CsvSource({"1000000", "100000000000"})
  void deadlinesBeyondNanosecondRangeSaturate(long days) {
    assertThat(EpochTicker.ticksFor(Duration.ofDays(days))).isEqualTo(4611686018429L);
  }
}
