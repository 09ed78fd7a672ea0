package dev.svc.engine;

import dev.svc.engine.internal.HostProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The engine host processes of this JVM, seen from outside, for the isolation tests. */
final class HostProcesses {

  private static final Duration PATIENCE = Duration.ofSeconds(30);
  private static final int PAUSE = 34; // pause(2) on x86_64, the only platform the natives ship for

  private HostProcesses() {}

  /** The pids of this JVM's children that are engine hosts (zombies included), sorted. */
  static List<Long> children() {
    return ProcessHandle.current().children()
        .filter(HostProcesses::isHost)
        .map(ProcessHandle::pid)
        .sorted()
        .toList();
  }

  /** Whether {@code process} runs the engine host executable. */
  static boolean isHost(ProcessHandle process) {
    return process.info().command().map(command -> command.endsWith("/" + HostProcess.EXECUTABLE)).orElse(false);
  }

  /** Sends SIGKILL to {@code engine}'s host. */
  static void kill(Engine engine) {
    ProcessHandle.of(pid(engine)).ifPresent(ProcessHandle::destroyForcibly);
  }

  /** The pid of {@code engine}'s host. */
  static long pid(Engine engine) {
    return ((ProcessGuest) engine.instance().guest()).pid();
  }

  /**
   * Waits until process {@code pid}, which needn't be this JVM's child, has ended: it is gone, or a
   * zombie waiting for a parent that isn't this JVM to reap it; fails after 30 s.
   */
  static void awaitEnded(long pid) {
    long end = System.nanoTime() + PATIENCE.toNanos();
    while (running(pid)) {
      if (System.nanoTime() > end) {
        throw new AssertionError("process " + pid + " still runs after " + PATIENCE);
      }
      Thread.onSpinWait();
    }
  }

  /**
   * Waits until the main thread of host {@code pid} sits in {@code pause()}, where the crash
   * trigger {@code CRASH_HANG} parks it; fails after 30 s.
   */
  static void awaitPaused(long pid) {
    long end = System.nanoTime() + PATIENCE.toNanos();
    while (!syscall(pid).startsWith(PAUSE + " ")) {
      if (System.nanoTime() > end) {
        throw new AssertionError("host " + pid + " is not paused after " + PATIENCE + ": " + syscall(pid));
      }
      Thread.onSpinWait();
    }
  }

  // The system call a process's main thread is blocked in, number first (x86_64 numbering).
  private static String syscall(long pid) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(pid), "syscall")).strip();
    } catch (IOException e) {
      return "unreadable: " + e.getMessage();
    }
  }

  private static boolean running(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // The state follows the command, which is in parentheses and may hold any character.
      return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
    } catch (IOException gone) {
      return false;
    }
  }

  /**
   * Waits until process {@code pid} has ended and been reaped (its /proc entry, which a zombie
   * keeps, is gone); fails after 30 s.
   */
  static void awaitGone(long pid) {
    long end = System.nanoTime() + PATIENCE.toNanos();
    ProcessHandle.of(pid).ifPresent(process -> {
      try {
        process.onExit().get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException | ExecutionException | TimeoutException e) {
        throw new AssertionError("process " + pid + " did not end within " + PATIENCE, e);
      }
    });
    // onExit completes when the process exits; the JVM's reaper collects it right after.
    while (ProcessHandle.of(pid).isPresent()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("process " + pid + " ended but was not reaped within " + PATIENCE);
      }
      Thread.onSpinWait();
    }
  }
}
