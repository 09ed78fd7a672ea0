package dev.svc.engine.internal;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One {@code svc-engine-host} process: starting it with its limits, the channel to it, killing it,
 * and saying how it died.
 *
 * <p>The channel's shared memory is a file in {@code /dev/shm} (the private work directory where
 * there is none), made owner-only and mapped here, then mapped by the host, which deletes it at
 * once (both keep their mappings), so a JVM killed while its host starts leaves no file behind;
 * this side deletes it when the host never got that far.
 *
 * <p>Hosts are started from one long-lived daemon thread, {@code svc-engine-host-launcher}, because
 * the kernel delivers a host's parent-death signal when the <em>thread</em> that started it ends,
 * not the JVM: a host started from a short-lived pool thread would die with that thread. The JVM's
 * own process reaper waits for every host, so none stays a zombie. The host's stderr goes to a file
 * in a private directory (the host caps it at 1 MiB), read back when it died.
 *
 * <p><b>Thread safety:</b> {@link #kill()}, {@link #alive()} and {@link #close()} may be called from
 * any thread; the channel belongs to whoever holds the instance's lock.
 */
public final class HostProcess implements AutoCloseable {

  /** The host executable's file name, beside the bridge library. */
  public static final String EXECUTABLE = "svc-engine-host";
  /** Environment variable that lets a host obey {@link HostChannel#CRASH} (tests only). */
  public static final String TEST_TRIGGERS_ENV = "SVC_ENGINE_HOST_TEST_TRIGGERS";
  /** System property: {@code true} starts hosts with test triggers enabled (tests only). */
  public static final String TEST_TRIGGERS_PROPERTY = "svc.engine.host.testTriggers";
  /** System property: a host's lifetime CPU limit in seconds (RLIMIT_CPU); unset = none. */
  public static final String CPU_SECONDS_PROPERTY = "svc.engine.host.cpuSeconds";
  /** System property: the host executable to run; unset = {@link #EXECUTABLE} beside the bridge library. */
  public static final String EXECUTABLE_PROPERTY = "svc.engine.host.path";
  /** The help of a host that can't be started or dies while starting. */
  public static final String START_HELP = "Isolation.PROCESS runs the executable " + EXECUTABLE + ", which ships"
      + " beside the bridge library (libsvc_wasmtime_jni.so) in the engine-jni jar: keep both from one build in"
      + " one directory (with -Dsvc.native.path, `make -C native/jni` builds both into native/jni/build), or"
      + " name the host with -D" + EXECUTABLE_PROPERTY + "; Isolation.IN_PROCESS needs no host";

  // Address space a host may add after start for its native allocations, beyond what wasmtime
  // reserved for linear memory: its own working set plus copies of requests and responses.
  private static final long NATIVE_HEADROOM = 256L << 20;
  private static final int STDERR_TAIL = 3072;

  private static final ExecutorService LAUNCHER =
      new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
          runnable -> daemon(runnable, "svc-engine-host-launcher"));
  private static final ScheduledThreadPoolExecutor WATCHDOG = watchdog();
  private static final AtomicLong NEXT_ID = new AtomicLong();
  private static final Path SHARED_MEMORY = Path.of("/dev/shm");
  private static final long NO_TIMER = Long.MIN_VALUE;

  private final Process process;
  private final Path stderrFile;
  private final Path channelFile;
  private final HostChannel channel;
  // The call the watchdog may kill the host for: null when none runs, `killed` once it killed
  // the host for one (for good: a dead host takes no more calls).
  private final AtomicReference<Watch> watched = new AtomicReference<>();
  private final Watch killed = new Watch(0);
  // When the host's one timer is due (System.nanoTime()), or NO_TIMER, and the timer.
  private final AtomicLong timerDue = new AtomicLong(NO_TIMER);
  private volatile ScheduledFuture<?> timer;

  private HostProcess(Process process, Path stderrFile, Path channelFile, MappedByteBuffer shared, long spinMicros) {
    this.process = process;
    this.stderrFile = stderrFile;
    this.channelFile = channelFile;
    this.channel =
        new HostChannel(process.getInputStream(), process.getOutputStream(), shared, spinMicros, process::isAlive,
            EXECUTABLE + " " + process.pid());
  }

  /**
   * Starts a host for the serialized module {@code module}.
   *
   * @param module a file {@code EngineModule.precompile()} wrote
   * @param fuel whether the module's engine meters fuel (the host's engine must match)
   * @param maxMemory the guest's linear memory cap, when there is one
   * @throws IOException when the process could not be started
   */
  public static HostProcess start(Path module, boolean fuel, OptionalLong maxMemory) throws IOException {
    Path executable = executable();
    long spinMicros;
    try {
      spinMicros = HostChannel.spinMicros();
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
    Path channelFile = channelFile();
    MappedByteBuffer shared;
    try (FileChannel file = FileChannel.open(channelFile, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      shared = file.map(FileChannel.MapMode.READ_WRITE, 0, HostChannel.SHARED_BYTES);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(channelFile);
      throw e;
    }
    List<String> command = new ArrayList<>(List.of(
        executable.toString(),
        "--module=" + module.toAbsolutePath(),
        "--channel=" + channelFile,
        "--spin-micros=" + spinMicros,
        "--fuel=" + (fuel ? 1 : 0),
        "--max-memory=" + maxMemory.orElse(-1),
        "--native-headroom=" + (NATIVE_HEADROOM + maxMemory.orElse(0)),
        "--parent=" + ProcessHandle.current().pid()));
    Long cpuSeconds = Long.getLong(CPU_SECONDS_PROPERTY);
    if (cpuSeconds != null) {
      command.add("--cpu-seconds=" + cpuSeconds);
    }
    Path stderr = WorkDirectory.PATH.resolve("host-" + NEXT_ID.incrementAndGet() + ".stderr");
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr.toFile());
    Map<String, String> environment = builder.environment();
    environment.remove(TEST_TRIGGERS_ENV);
    if (Boolean.getBoolean(TEST_TRIGGERS_PROPERTY)) {
      environment.put(TEST_TRIGGERS_ENV, "1");
    }
    try {
      return new HostProcess(LAUNCHER.submit(builder::start).get(), stderr, channelFile, shared, spinMicros);
    } catch (ExecutionException e) {
      Files.deleteIfExists(channelFile);
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } catch (InterruptedException e) {
      Files.deleteIfExists(channelFile);
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while starting an engine host", e);
    }
  }

  private static Path executable() throws IOException {
    NativeLibrary.ensureLoaded(); // the channel asks it which CPU it runs on
    String named = System.getProperty(EXECUTABLE_PROPERTY);
    Path executable = named != null ? Path.of(named) : NativeLibrary.directory().resolve(EXECUTABLE);
    if (!Files.isExecutable(executable)) {
      throw new IOException("there is no executable " + executable
          + (named != null ? " (-D" + EXECUTABLE_PROPERTY + ")" : " beside the bridge library"));
    }
    return executable;
  }

  // An owner-only file of the channel's size, in memory where /dev/shm exists.
  private static Path channelFile() throws IOException {
    Path dir = Files.isDirectory(SHARED_MEMORY) && Files.isWritable(SHARED_MEMORY) ? SHARED_MEMORY : WorkDirectory.PATH;
    Path file = Files.createTempFile(dir, "svc-engine-host-", ".channel",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try (RandomAccessFile sized = new RandomAccessFile(file.toFile(), "rw")) {
      sized.setLength(HostChannel.SHARED_BYTES);
    } catch (IOException e) {
      Files.deleteIfExists(file);
      throw e;
    }
    return file;
  }

  private void deleteChannelFile() {
    try {
      Files.deleteIfExists(channelFile);
    } catch (IOException ignored) {
      // Only a file left in /dev/shm; a host that mapped it doesn't need it.
    }
  }

  /** The channel's shared memory file, which the host deletes as soon as it has mapped it. */
  public Path sharedMemoryFile() {
    return channelFile;
  }

  /** The channel to the host. */
  public HostChannel channel() {
    return channel;
  }

  /** The host's process id. */
  public long pid() {
    return process.pid();
  }

  /** Whether the process still runs. */
  public boolean alive() {
    return process.isAlive();
  }

  /**
   * Kills the host with SIGKILL once {@code deadline} has passed, unless the returned watch ended
   * first: the last resort when epoch interruption can't stop a call (it blocks in native code).
   * {@link #killedAtDeadline()} then says why it died. One call is watched at a time.
   *
   * <p>Arming costs no wake-up of the watchdog: the host has one timer, due at the earliest deadline
   * it may have to meet, which finds the watch of the call that runs then (if any) and kills only if
   * that call's own deadline has passed. So a timer meant for an earlier call can never kill the host
   * under a later one, and back-to-back calls wake the watchdog once per deadline, not once a call.
   */
  public Watch killAfter(Duration deadline) {
    Watch watch = new Watch(System.nanoTime() + deadline.toNanos());
    watched.set(watch);
    armTimer(watch);
    return watch;
  }

  /**
   * What the watchdog runs when the host's timer is due (tests call it to play a late watchdog):
   * kills the host if the watched call is past its own deadline, waits for that deadline if not, and
   * stops when no call is watched.
   */
  public void checkDeadline() {
    check(timerDue.get());
  }

  // Makes sure a timer is due no later than {@code watch}'s deadline.
  private void armTimer(Watch watch) {
    while (true) {
      long due = timerDue.get();
      if (due != NO_TIMER && due - watch.due <= 0) {
        return;
      }
      if (timerDue.compareAndSet(due, watch.due)) {
        // The replaced timer (due later) would find nothing to do; cancelled, it lets go of this host.
        ScheduledFuture<?> replaced = timer;
        timer = WATCHDOG.schedule(() -> check(watch.due), watch.due - System.nanoTime(), TimeUnit.NANOSECONDS);
        if (replaced != null) {
          replaced.cancel(false);
        }
        return;
      }
    }
  }

  // The timer due at {@code due} fired; one that an earlier timer replaced does nothing.
  private void check(long due) {
    if (due == NO_TIMER || timerDue.get() != due) {
      return;
    }
    Watch watch = watched.get();
    if (watch == null || watch == killed) {
      // A call armed after the get() above saw this timer pending; it gets its own.
      if (timerDue.compareAndSet(due, NO_TIMER)) {
        Watch armed = watched.get();
        if (armed != null && armed != killed) {
          armTimer(armed);
        }
      }
      return;
    }
    long left = watch.due - System.nanoTime();
    if (left > 0) {
      if (timerDue.compareAndSet(due, watch.due)) {
        timer = WATCHDOG.schedule(() -> check(watch.due), left, TimeUnit.NANOSECONDS);
      }
    } else if (watched.compareAndSet(watch, killed)) {
      process.destroyForcibly();
    } else {
      check(due);
    }
  }

  /** The watchdog's hold on one call ({@link #killAfter}). */
  public final class Watch {
    private final long due;

    private Watch(long due) {
      this.due = due;
    }

    /**
     * Ends the watch when the call has answered (may be called again).
     *
     * @return false when the watchdog killed the host for this call first: its answer came too late
     */
    public boolean end() {
      return watched.compareAndSet(this, null) || watched.get() != killed;
    }
  }

  /** Whether the watchdog of {@link #killAfter} killed the host. */
  public boolean killedAtDeadline() {
    return watched.get() == killed;
  }

  /** Kills the host with SIGKILL. */
  public void kill() {
    process.destroyForcibly();
  }

  /**
   * How the host died, for a stopped instance's message: {@code its host process was killed by
   * signal 11 (SIGSEGV)} or {@code its host process exited with code 66}, then a line break and the
   * tail of its stderr when it wrote any. Waits for the process to end (it is ending: its output
   * ended), killing it if it doesn't within a second.
   */
  public String death() {
    boolean ended = waitUninterruptibly(Duration.ofSeconds(1));
    if (!ended) {
      process.destroyForcibly();
      waitUninterruptibly(Duration.ofSeconds(5));
    }
    int status = process.isAlive() ? -1 : process.exitValue();
    String how = status > 128
        ? "was killed by signal " + (status - 128) + signalName(status - 128)
        : status < 0 ? "didn't end when killed" : "exited with code " + status;
    String stderr = stderrTail();
    return "its host process " + how + (stderr.isEmpty() ? "" : "\n" + stderr);
  }

  /** Ends the host (closing its input ends it; the kill makes sure) and deletes its stderr file. */
  @Override
  public void close() {
    try {
      process.getOutputStream().close();
    } catch (IOException ignored) {
      // The host is gone already.
    }
    process.destroyForcibly();
    deleteChannelFile();
    timerDue.set(NO_TIMER);
    ScheduledFuture<?> pending = timer;
    if (pending != null) {
      pending.cancel(false);
    }
    process.onExit().thenRun(() -> {
      try {
        Files.deleteIfExists(stderrFile);
      } catch (IOException ignored) {
        // A private temporary directory; removed when the JVM exits.
      }
    });
  }

  private boolean waitUninterruptibly(Duration timeout) {
    boolean interrupted = false;
    long end = System.nanoTime() + timeout.toNanos();
    try {
      while (true) {
        try {
          return process.waitFor(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private String stderrTail() {
    try (RandomAccessFile file = new RandomAccessFile(stderrFile.toFile(), "r")) {
      long length = file.length();
      long start = Math.max(0, length - STDERR_TAIL);
      byte[] tail = new byte[(int) (length - start)];
      file.seek(start);
      file.readFully(tail);
      return (start > 0 ? "[...]\n" : "") + new String(tail, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return "";
    }
  }

  private static String signalName(int signal) {
    String name = switch (signal) {
      case 4 -> "SIGILL";
      case 6 -> "SIGABRT";
      case 7 -> "SIGBUS";
      case 8 -> "SIGFPE";
      case 9 -> "SIGKILL";
      case 11 -> "SIGSEGV";
      case 15 -> "SIGTERM";
      case 24 -> "SIGXCPU";
      case 25 -> "SIGXFSZ";
      default -> null;
    };
    return name == null ? "" : " (" + name + ")";
  }

  private static Thread daemon(Runnable runnable, String name) {
    Thread thread = new Thread(runnable, name);
    thread.setDaemon(true);
    return thread;
  }

  private static ScheduledThreadPoolExecutor watchdog() {
    ScheduledThreadPoolExecutor executor =
        new ScheduledThreadPoolExecutor(1, runnable -> daemon(runnable, "svc-engine-host-watchdog"));
    executor.setRemoveOnCancelPolicy(true);
    return executor;
  }

  /**
   * A private (owner-only) directory for the files engine hosts use, made on first use and removed
   * when the JVM exits: their stderr files, and the serialized modules they load.
   */
  public static Path workDirectory() {
    return WorkDirectory.PATH;
  }

  private static final class WorkDirectory {
    static final Path PATH = create();

    private static Path create() {
      try {
        Path dir = Files.createTempDirectory("svc-engine-hosts-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        dir.toFile().deleteOnExit();
        return dir;
      } catch (IOException e) {
        throw new UncheckedIOException("no private directory for engine hosts' files", e);
      }
    }
  }
}
