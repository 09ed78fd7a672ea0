package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.svc.engine.internal.HostChannel;
import dev.svc.engine.internal.HostProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An engine in a host process of its own ({@link Isolation#PROCESS}): a host that dies, however it
 * dies, stops only its own instance, with a {@link StoppedException} that says how; other instances
 * evaluate on; no host process outlives its engine.
 */
class ProcessIsolationTest {

  private static final String MESSY = "policy a.b: K@1\nlet  s =  1\n";
  private static final String TIDY = "policy a.b: K@1\n\nlet s = 1\n";

  private List<Long> hostsBefore;

  @BeforeEach
  void countHosts() {
    hostsBefore = HostProcesses.children();
  }

  @AfterEach
  void noHostOutlivesItsEngine() {
    // Hosts started by this test are all closed: each ends and is reaped (no zombie is left).
    List<Long> started = new ArrayList<>(HostProcesses.children());
    started.removeAll(hostsBefore);
    started.forEach(HostProcesses::awaitGone);
    assertThat(HostProcesses.children()).containsExactlyInAnyOrderElementsOf(hostsBefore);
  }

  @Test
  void anInstanceInAHostAnswersAsOneInTheJvm() {
    try (Engine inJvm = Engine.create(TestModules.engine());
        Engine hosted = Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS)) {
      assertThat(hosted.versionJson()).isEqualTo(inJvm.versionJson());
      assertThat(hosted.format(MESSY)).isEqualTo(inJvm.format(MESSY));
      assertThat(hosted.memorySize()).isEqualTo(inJvm.memorySize());
    }
  }

  @Test
  void theHostOfAnInstanceStartedByAThreadThatEndedLivesOn() throws Exception {
    // The parent-death signal follows the thread that started a host: hosts start from one
    // long-lived thread, so the end of this one is no death.
    ExecutorService starter = Executors.newSingleThreadExecutor();
    Engine engine = starter.submit(() -> Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS))
        .get();
    starter.shutdown();
    assertThat(starter.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    try (engine) {
      assertThat(engine.version().platform()).isEqualTo("wasip1/wasm");
    }
  }

  static Stream<Arguments> deaths() {
    return Stream.of(
        Arguments.of("SIGKILL from outside", (Consumer<Engine>) engine -> HostProcesses.kill(engine),
            "the Sigil module stopped: its host process was killed by signal 9 (SIGKILL)"),
        Arguments.of("a segmentation fault", crash(HostChannel.CRASH_SEGV),
            "the Sigil module stopped: its host process was killed by signal 11 (SIGSEGV)"),
        Arguments.of("an exit", crash(HostChannel.CRASH_EXIT),
            "the Sigil module stopped: its host process exited with code 42\n"
                + "svc-engine-host: exiting on request (test trigger)"),
        Arguments.of("native memory past its cap", crash(HostChannel.CRASH_MALLOC),
            "the Sigil module stopped: its host process was killed by signal 6 (SIGABRT)\n"
                + "svc-engine-host: out of native memory (test trigger)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("deaths")
  void aHostThatDiesStopsItsInstanceSayingHow(String how, Consumer<Engine> death, String message) {
    try (Engine engine = Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS)) {
      engine.version();
      StoppedException stopped = stop(engine, death);

      assertThat(stopped.message()).isEqualTo(message);
      assertThat(stopped.help()).startsWith(StoppedException.HELP_REBUILD);
      assertThat(catchThrowableOfType(StoppedException.class, engine::version)).isSameAs(stopped);
      assertThat(engine.stopped()).containsSame(stopped);
    }
  }

  @Test
  void aHostBlockedPastTheHardDeadlineIsKilledAndTheCallTimesOut() {
    Limits limits = Limits.defaults().withOpDeadline(Duration.ofMillis(300));
    try (Engine engine = Engine.create(TestModules.engine(), limits, Isolation.PROCESS)) {
      TimeoutException timeout =
          catchThrowableOfType(TimeoutException.class, () -> engine.instance().crashHost(HostChannel.CRASH_HANG));

      assertThat(timeout.deadline()).isEqualTo(Duration.ofMillis(300));
      StoppedException later = catchThrowableOfType(StoppedException.class, engine::version);
      assertThat(later.message())
          .isEqualTo("the Sigil module stopped earlier: a call ran past its hard deadline and was killed");
    }
  }

  @Test
  void aGuestLoopPastTheHardDeadlineIsInterruptedInsideTheHost() {
    try (EngineModule module = EngineModule.fromBytes(TestModules.wat("engine_loops"));
        Engine engine = Engine.create(
            module, Limits.defaults().withOpDeadline(Duration.ofMillis(200)), Isolation.PROCESS)) {
      TimeoutException timeout = catchThrowableOfType(TimeoutException.class, engine::version);

      assertThat(timeout.deadline()).isEqualTo(Duration.ofMillis(200));
      // The host's own epoch ticker stopped the loop: the process lives on, the instance is stopped.
      assertThat(((ProcessGuest) engine.instance().guest()).pid()).isPositive();
      assertThat(engine.instance().guest().isStopped()).isTrue();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("deaths")
  void onlyTheDeadHostsCallsFailWhileOtherThreadsEvaluate(String how, Consumer<Engine> death, String message)
      throws Exception {
    int others = 3;
    List<Engine> engines = new ArrayList<>();
    ExecutorService threads = Executors.newFixedThreadPool(others);
    try {
      Engine victim = Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS);
      engines.add(victim);
      for (int i = 0; i < others; i++) {
        engines.add(Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS));
      }
      CountDownLatch running = new CountDownLatch(others);
      CountDownLatch died = new CountDownLatch(1);
      List<Future<Integer>> answered = new ArrayList<>();
      for (Engine other : engines.subList(1, engines.size())) {
        answered.add(threads.submit(() -> {
          int calls = 0;
          running.countDown();
          // Evaluate before, during and after the death, until it has happened and a bit more.
          while (died.getCount() > 0 || calls < 50) {
            assertThat(other.format(MESSY)).isEqualTo(TIDY);
            calls++;
          }
          return calls;
        }));
      }
      running.await();
      StoppedException stopped = stop(victim, death);
      died.countDown();

      assertThat(stopped.message()).isEqualTo(message);
      for (Future<Integer> calls : answered) {
        assertThat(calls.get()).isGreaterThanOrEqualTo(50);
      }
      for (Engine other : engines.subList(1, engines.size())) {
        assertThat(other.stopped()).isEmpty();
      }
    } finally {
      threads.shutdownNow();
      engines.forEach(Engine::close);
    }
  }

  @Test
  void aWatchdogDueAfterItsCallAnsweredKillsNoLaterCall() {
    try (Engine engine = Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS)) {
      HostProcess host = ((ProcessGuest) engine.instance().guest()).process();
      HostProcess.Watch answered = host.killAfter(Duration.ofDays(1));
      assertThat(answered.end()).isTrue();
      HostProcess.Watch running = host.killAfter(Duration.ofDays(1));

      host.checkDeadline(); // the watchdog fires now, with a call inside its own deadline

      assertThat(host.alive()).isTrue();
      assertThat(running.end()).isTrue();
      assertThat(engine.format(MESSY)).isEqualTo(TIDY);
    }
  }

  @Test
  void aWatchedCallPastItsDeadlineHasItsHostKilledEvenWhenItAnswersLate() {
    try (Engine engine = Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS)) {
      HostProcess host = ((ProcessGuest) engine.instance().guest()).process();

      HostProcess.Watch late = host.killAfter(Duration.ZERO);
      HostProcesses.awaitGone(host.pid());

      assertThat(late.end()).as("the answer came too late").isFalse();
      assertThat(host.killedAtDeadline()).isTrue();
    }
  }

  @Test
  void aMissingHostExecutableIsNamedWithHelpAboutTheHost() {
    System.setProperty(HostProcess.EXECUTABLE_PROPERTY, "/nonexistent/" + HostProcess.EXECUTABLE);
    try {
      StoppedException refused = catchThrowableOfType(StoppedException.class,
          () -> Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS));

      assertThat(refused.message()).isEqualTo("starting the Sigil module failed: the engine host process could not"
          + " be started: there is no executable /nonexistent/svc-engine-host (-Dsvc.engine.host.path)");
      assertThat(refused.help()).isEqualTo(HostProcess.START_HELP).contains("svc-engine-host", "make -C native/jni");
    } finally {
      System.clearProperty(HostProcess.EXECUTABLE_PROPERTY);
    }
  }

  @Test
  void aHostThatDiesAtStartSaysHowWithHelpAboutTheHost(@TempDir Path dir) throws IOException {
    System.setProperty(HostProcess.EXECUTABLE_PROPERTY, dyingHost(dir).toString());
    try {
      StoppedException refused = catchThrowableOfType(StoppedException.class,
          () -> Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS));

      assertThat(refused.message()).isEqualTo("starting the Sigil module failed: the engine host process ended while"
          + " starting: its host process exited with code 3\nsvc-engine-host: dies at start (test)");
      assertThat(refused.help()).isEqualTo(HostProcess.START_HELP);
    } finally {
      System.clearProperty(HostProcess.EXECUTABLE_PROPERTY);
    }
  }

  /** A stand-in for the host executable that says why on stderr and exits with code 3 at once. */
  static Path dyingHost(Path dir) throws IOException {
    Path script = dir.resolve("dying-host");
    Files.writeString(script, "#!/bin/sh\necho 'svc-engine-host: dies at start (test)' >&2\nexit 3\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }

  private static Consumer<Engine> crash(byte how) {
    return engine -> engine.instance().crashHost(how);
  }

  // Kills the host, then makes a call, which finds it dead; a crash trigger fails by itself.
  private static StoppedException stop(Engine engine, Consumer<Engine> death) {
    StoppedException during = catchThrowableOfType(StoppedException.class, () -> {
      death.accept(engine);
      HostProcesses.awaitGone(((ProcessGuest) engine.instance().guest()).pid());
      engine.version();
    });
    assertThat(during).isNotNull();
    return during;
  }
}
