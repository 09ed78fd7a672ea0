package dev.svc.cli.access;

import dev.svc.client.Pause;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/** A clock that only moves when the code under test pauses; the pauses are recorded. */
final class FakeTime extends Clock implements Pause {

  private Instant now = Instant.parse("2025-03-04T08:00:00Z");
  private final List<Duration> pauses = new ArrayList<>();
  private final ZoneId zone;

  FakeTime(ZoneId zone) {
    this.zone = zone;
  }

  @Override
  public synchronized void pause(Duration duration) {
    pauses.add(duration);
    now = now.plus(duration);
  }

  synchronized List<Duration> pauses() {
    return List.copyOf(pauses);
  }

  @Override
  public ZoneId getZone() {
    return zone;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return new FakeTime(zone);
  }

  @Override
  public synchronized Instant instant() {
    return now;
  }
}
