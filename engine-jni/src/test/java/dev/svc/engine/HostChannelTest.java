package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.svc.engine.internal.HostChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The channel between an engine and its host process ({@link Isolation#PROCESS}): a call is one
 * frame each way through shared memory; frames larger than its region travel on the pipe; a host
 * asleep past its spin is woken by the doorbell; and a host that dies while the JVM spins for its
 * answer stops the call instead of hanging it. Tests that could hang carry a {@link Timeout}.
 */
class HostChannelTest {

  private static final SourceFile BAG_KIND =
      SourceFile.of(
          "kind.sigil",
          "kind Bag version 1\n\ninput items: list<string>\n\ndecision ok {\n  reason: yes\n}\n\n"
              + "collect one\nprecedence ok\n\ndefault ok(reason: yes)\n");
  private static final SourceFile BAG = SourceFile.of("bag.sigil", "policy bag: Bag@1\n");

  @AfterEach
  void defaultSpin() {
    System.clearProperty(HostChannel.SPIN_PROPERTY);
  }

  @Test
  void anEvaluationIsOneFrameToTheHostAndTheMemorySizeComesWithItsAnswer() {
    try (Engine inJvm = Engine.create(TestModules.engine());
        Engine hosted = Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS);
        Policy bagInJvm = inJvm.compile(List.of(BAG_KIND, BAG), CompileOptions.defaults());
        Policy bag = hosted.compile(List.of(BAG_KIND, BAG), CompileOptions.defaults())) {
      HostChannel channel = channel(hosted);
      long before = channel.framesSent();

      assertThat(bag.eval(Map.of("items", items(20_000))).reason()).contains("yes");
      long memory = hosted.memorySize();

      assertThat(channel.framesSent()).as("the evaluation's one request; the memory size asks nothing")
          .isEqualTo(before + 1);
      bagInJvm.eval(Map.of("items", items(20_000)));
      assertThat(memory).as("the memory the input grew, as the same instance in this JVM has it")
          .isEqualTo(inJvm.memorySize());
    }
  }

  @Test
  void aRequestAndAnAnswerLargerThanTheSharedRegionTravelOnThePipe() {
    StringBuilder messy = new StringBuilder("policy a.b: K@1\n");
    for (int i = 0; messy.length() <= 2 * HostChannel.REGION_PAYLOAD_MAX; i++) {
      messy.append("let  s").append(i).append(" =  ").append(i).append('\n');
    }
    try (Engine inJvm = Engine.create(TestModules.engine());
        Engine hosted = Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS)) {
      String tidy = inJvm.format(messy.toString());
      long before = channel(hosted).framesSent();

      assertThat(tidy.length()).isGreaterThan(HostChannel.REGION_PAYLOAD_MAX);
      assertThat(hosted.format(messy.toString())).isEqualTo(tidy);
      assertThat(channel(hosted).framesSent()).isEqualTo(before + 1);
      assertThat(hosted.format("policy a.b: K@1\nlet  s =  1\n")).as("and the region serves the next call")
          .isEqualTo("policy a.b: K@1\n\nlet s = 1\n");
    }
  }

  @Test
  void anAnswerInTheRegionIsExactlyItsOwnBytesAfterALongerOne() {
    // Both answers travel through the region, the second much shorter: none of the first's bytes
    // may show in it, and neither loses its first bytes to the memory size that precedes it there.
    StringBuilder messy = new StringBuilder("policy a.b: K@1\n");
    for (int i = 0; messy.length() <= HostChannel.REGION_PAYLOAD_MAX / 4; i++) {
      messy.append("let  s").append(i).append(" =  ").append(i).append('\n');
    }
    try (Engine inJvm = Engine.create(TestModules.engine());
        Engine hosted = Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS)) {
      String tidy = inJvm.format(messy.toString());

      assertThat(tidy.length()).isLessThan(HostChannel.REGION_PAYLOAD_MAX / 2);
      assertThat(hosted.format(messy.toString())).isEqualTo(tidy);
      assertThat(hosted.format("policy a.b: K@1\nlet  s =  1\n")).isEqualTo("policy a.b: K@1\n\nlet s = 1\n");
      assertThat(hosted.memorySize()).as("the memory size still comes with each answer")
          .isEqualTo(inJvm.memorySize());
    }
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aHostAsleepPastItsSpinIsWokenForTheNextCall() {
    try (Engine hosted = Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS)) {
      HostChannel channel = channel(hosted);
      // Idle past its spin, the host blocks on its pipe (and says so) until a doorbell wakes it.
      while (!channel.hostAsleep()) {
        Thread.onSpinWait();
      }

      assertThat(hosted.format("policy a.b: K@1\nlet  s =  1\n")).isEqualTo("policy a.b: K@1\n\nlet s = 1\n");
    }
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void callsAnswerWhenNeitherSideSpins() {
    System.setProperty(HostChannel.SPIN_PROPERTY, "0");
    try (Engine hosted = Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS)) {
      for (int i = 0; i < 200; i++) {
        assertThat(hosted.format("policy a.b: K@1\nlet  s =  " + i + "\n"))
            .isEqualTo("policy a.b: K@1\n\nlet s = " + i + "\n");
      }
      HostChannel channel = channel(hosted);
      assertThat(channel.doorbellsRung()).as("the host slept between calls").isPositive();
      assertThat(channel.hostCounters().sleeps()).isPositive();
      for (HostChannel.Counters side : List.of(channel.jvmCounters(), channel.hostCounters())) {
        assertThat(side.spinLoops()).as("no side spun").isZero();
        assertThat(side.yields()).isZero();
      }
    }
  }

  @Test
  void theCountersAccountForEveryWaitOnBothSides() {
    try (Engine hosted = Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS);
        Policy bag = hosted.compile(List.of(BAG_KIND, BAG), CompileOptions.defaults())) {
      for (int i = 0; i < 100; i++) {
        bag.eval(Map.of("items", items(i)));
      }
      HostChannel channel = channel(hosted);
      HostChannel.Counters jvm = channel.jvmCounters();
      HostChannel.Counters host = channel.hostCounters();

      assertThat(host.waits()).as("one wait for each frame the JVM sent").isEqualTo(channel.framesSent());
      assertThat(jvm.waits()).as("READY and one answer for each frame").isEqualTo(channel.framesSent() + 1);
      assertThat(host.spinHits() + host.sleeps()).isEqualTo(host.waits());
      assertThat(jvm.spinHits() + jvm.sleeps()).isEqualTo(jvm.waits());
      assertThat(host.busyNanos()).as("the host worked").isPositive();
    }
  }

  @Test
  void theHostDeletesTheChannelFileAsSoonAsItHasMappedIt() {
    try (Engine hosted = Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS)) {
      // The JVM deletes it only when the host never got that far: a JVM killed while its host
      // starts leaves nothing in /dev/shm.
      assertThat(((ProcessGuest) hosted.instance().guest()).process().sharedMemoryFile()).doesNotExist();
      assertThat(hosted.format("policy a.b: K@1\n")).isEqualTo("policy a.b: K@1\n");
    }
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void aHostThatDiesWhileTheJvmSpinsForItsAnswerStopsTheCall() {
    // A spin of a minute: only noticing the death ends it within the test's timeout.
    System.setProperty(HostChannel.SPIN_PROPERTY, Long.toString(HostChannel.SPIN_MICROS_MAX));
    try (Engine hosted = Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS)) {
      StoppedException stopped =
          catchThrowableOfType(StoppedException.class, () -> hosted.instance().crashHost(HostChannel.CRASH_SEGV));

      assertThat(stopped.message())
          .isEqualTo("the Sigil module stopped: its host process was killed by signal 11 (SIGSEGV)");
    }
  }

  @Test
  void aSpinThatIsNoNumberOfMicrosecondsStopsTheStartSayingSo() {
    System.setProperty(HostChannel.SPIN_PROPERTY, "61000000");

    StoppedException refused = catchThrowableOfType(StoppedException.class,
        () -> Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS));

    assertThat(refused.message()).isEqualTo("starting the Sigil module failed: the engine host process could not be"
        + " started: the system property svc.engine.host.spinMicros must be a number of microseconds from 0 to"
        + " 60000000, not `61000000`");
  }

  private static HostChannel channel(Engine engine) {
    return ((ProcessGuest) engine.instance().guest()).process().channel();
  }

  private static List<String> items(int count) {
    List<String> items = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      items.add("item" + i);
    }
    return items;
  }
}
