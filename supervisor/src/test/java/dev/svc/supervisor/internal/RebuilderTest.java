package dev.svc.supervisor.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Rebuilder}'s pauses between failed tries. */
class RebuilderTest {

  @Test
  void thePauseStartsAt50MsAndDoublesUpTo2Seconds() {
    List<Long> pauses = new ArrayList<>();
    Duration pause = Rebuilder.FIRST_PAUSE;
    for (int i = 0; i < 8; i++) {
      pauses.add(pause.toMillis());
      pause = Rebuilder.nextPause(pause);
    }

    assertThat(pauses).containsExactly(50L, 100L, 200L, 400L, 800L, 1600L, 2000L, 2000L);
  }
}
