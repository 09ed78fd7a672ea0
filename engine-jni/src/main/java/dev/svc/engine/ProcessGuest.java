package dev.svc.engine;

import dev.svc.engine.internal.EpochTicker;
import dev.svc.engine.internal.GuestTrap;
import dev.svc.engine.internal.HostChannel;
import dev.svc.engine.internal.HostChannel.Frame;
import dev.svc.engine.internal.HostProcess;
import dev.svc.engine.internal.Native;
import dev.svc.engine.internal.WasmError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * A guest in an engine host process of its own ({@link Isolation#PROCESS}): every entry is one
 * request over the host's channel, the module's host calls come back over it and are answered
 * here, on the calling thread, by the instance's {@link HostCalls}.
 *
 * <p>Deadlines: the host runs its own epoch ticker, so a call past its hard deadline traps there as
 * it would in this JVM. When the host can't answer even that (it blocks in native code), the
 * watchdog kills the process {@link #KILL_GRACE} after the deadline and the call fails as past its
 * deadline. A host that dies any other way (a signal, an exit) stops the guest with a {@link
 * GuestTrap.Kind#PROCESS_DIED} trap that says how, with the tail of the host's stderr.
 *
 * <p>Every answer to a guest entry carries the guest's memory size, so {@link #memorySize()} asks the
 * host nothing: a call is one frame each way (plus two per host call).
 */
final class ProcessGuest implements Guest {

  /** How long past a call's hard deadline the host may take to answer before it is killed. */
  static final Duration KILL_GRACE = Duration.ofMillis(500);
  // A host that hasn't loaded its module by then is stuck.
  private static final Duration START_DEADLINE = Duration.ofSeconds(30);

  private final HostProcess process;
  private final HostChannel channel;
  private final HostCalls hostCalls;
  private GuestTrap stopped; // guarded by the instance's lock
  private boolean dead; // guarded by the instance's lock: the host's output ended
  private long memorySize; // guarded by the instance's lock: as of the last answer to an entry

  private ProcessGuest(HostProcess process, HostCalls hostCalls) {
    this.process = process;
    this.channel = process.channel();
    this.hostCalls = hostCalls;
  }

  /**
   * Starts a host for {@code module} with {@code limits}' memory cap and waits until it holds an
   * instance.
   *
   * @throws WasmError when the host can't be started or can't load the module
   * @throws GuestTrap when the module trapped or exited while being instantiated
   */
  static ProcessGuest start(EngineModule module, Limits limits, HostCalls hostCalls) {
    HostProcess process;
    try {
      process = HostProcess.start(ModuleArtifacts.fileFor(module), module.config().fuel(), limits.maxMemory());
    } catch (IOException e) {
      throw new StoppedException(Instance.START_FAILED + "the engine host process could not be started: "
          + e.getMessage(), HostProcess.START_HELP, e);
    }
    ProcessGuest guest = new ProcessGuest(process, hostCalls);
    HostProcess.Watch watch = process.killAfter(START_DEADLINE);
    try {
      // A trap while instantiating answers as a guest entry does.
      Frame ready = guest.channel.receive(true);
      if (ready.type() != HostChannel.READY) {
        guest.answer(ready, true, null);
        throw new WasmError("the engine host process answered its start with frame " + ready.type());
      }
      guest.memorySize = ready.int64(0);
      return guest;
    } catch (IOException e) {
      // How it died first: closing deletes its stderr file.
      String death = process.death();
      process.close();
      throw new StoppedException(Instance.START_FAILED + "the engine host process ended while starting: " + death,
          HostProcess.START_HELP, e);
    } catch (RuntimeException | Error e) {
      process.close();
      throw e;
    } finally {
      watch.end();
    }
  }

  @Override
  public void initialize(Optional<Duration> deadline) {
    exchange(HostChannel.INIT, deadline, Native.UNLIMITED_FUEL, new byte[0]);
  }

  @Override
  public int abiVersion(Optional<Duration> deadline) {
    byte[] version = exchange(HostChannel.ABI, deadline, Native.UNLIMITED_FUEL, new byte[0]);
    return new Frame(HostChannel.DONE, version).int32(0);
  }

  @Override
  public byte[] call(byte[] request, Optional<Duration> deadline, long fuel) {
    return exchange(HostChannel.CALL, deadline, fuel, request);
  }

  @Override
  public boolean isStopped() {
    return stopped != null || dead || !process.alive();
  }

  @Override
  public byte[] stderr() {
    // A dead host's guest stderr died with it; the host's own stderr is in its stopped message.
    return dead ? new byte[0] : query(HostChannel.STDERR, new byte[0]);
  }

  @Override
  public long memorySize() {
    return dead ? 0 : memorySize;
  }

  @Override
  public void free() {
    channel.printCounters();
    process.close();
  }

  /** The host's process id, for tests that kill it from outside. */
  long pid() {
    return process.pid();
  }

  /** The host process, for tests. */
  HostProcess process() {
    return process;
  }

  /** Test-only: makes the host crash one way ({@code HostChannel.CRASH_*}); always throws. */
  void crash(byte how, Optional<Duration> deadline) {
    exchange(deadline, () -> channel.send(HostChannel.CRASH, new byte[] {how}));
    throw new IllegalStateException("the engine host survived its crash trigger " + how);
  }

  // A question that enters no guest code, so a stopped instance whose host lives answers it too;
  // {@code whenDead} is the answer once the host is gone.
  private byte[] query(byte type, byte[] whenDead) {
    try {
      channel.send(type, new byte[0]);
      return converse(false);
    } catch (IOException e) {
      died();
      return whenDead;
    }
  }

  private byte[] exchange(byte type, Optional<Duration> deadline, long fuel, byte[] body) {
    long ticks = deadline.map(EpochTicker::ticksFor).orElse(Native.NO_DEADLINE);
    return exchange(deadline, () -> channel.send(type, ticks, fuel, body));
  }

  // Sends a request that may enter guest code and reads the answer, killing the host if it hasn't
  // answered by the deadline and a grace. An answer that comes as the watchdog kills counts as
  // killed: the host is going, whatever it said.
  private byte[] exchange(Optional<Duration> deadline, Request request) {
    throwIfStopped();
    HostProcess.Watch watch = deadline.map(d -> process.killAfter(d.plus(KILL_GRACE))).orElse(null);
    try {
      request.send();
      byte[] answer = converse(true);
      if (watch != null && !watch.end()) {
        throw died();
      }
      return answer;
    } catch (IOException e) {
      throw died();
    } finally {
      if (watch != null) {
        watch.end();
      }
    }
  }

  @FunctionalInterface
  private interface Request {
    void send() throws IOException;
  }

  // Answers the module's host calls until the host answers the request (a guest entry when {@code
  // entry}: its answer then brings the memory size).
  private byte[] converse(boolean entry) throws IOException {
    Throwable handlerFailure = null;
    while (true) {
      Frame frame = channel.receive(entry);
      if (frame.type() != HostChannel.HOST_CALL) {
        return answer(frame, entry, handlerFailure);
      }
      try {
        channel.send(HostChannel.REPLY, hostCalls.hostCall(frame.payload()));
      } catch (RuntimeException | Error e) {
        // As in the bridge: the handler's own exception reaches the caller, the guest is stopped;
        // the host hears of it first, so the channel stays in step.
        handlerFailure = e;
        String message = e.getMessage();
        channel.send(HostChannel.REPLY_FAILED,
            (message != null ? message : e.getClass().getName()).getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  // The answer to a request; the answers to guest entries bring the memory size (the channel took
  // it off their payload), queries answer DONE without it.
  private byte[] answer(Frame frame, boolean entry, Throwable handlerFailure) {
    switch (frame.type()) {
      case HostChannel.DONE:
        if (entry) {
          memorySize = frame.memorySize();
        }
        return frame.payload();
      case HostChannel.NO_MEMORY:
        memorySize = frame.memorySize();
        return null;
      case HostChannel.PROBLEM:
        throw new WasmError(frame.text(0));
      case HostChannel.TRAP:
        memorySize = frame.memorySize();
        stopped = GuestTrap.of(frame.int32(0), frame.int32(4), frame.text(8));
        if (handlerFailure instanceof RuntimeException e) {
          throw e;
        }
        if (handlerFailure instanceof Error e) {
          throw e;
        }
        throw stopped;
      default:
        process.kill();
        throw died();
    }
  }

  // The instance latches the first stop and calls no more; this covers a death a query found.
  private void throwIfStopped() {
    if (stopped != null) {
      throw stopped;
    }
  }

  // The host's output ended: it died, or the watchdog killed it at a call's deadline.
  private GuestTrap died() {
    dead = true;
    String death = process.death();
    stopped = process.killedAtDeadline()
        ? new GuestTrap(GuestTrap.Kind.INTERRUPT, 0, "the engine host was killed at the call's hard deadline: " + death)
        : new GuestTrap(GuestTrap.Kind.PROCESS_DIED, 0, death);
    return stopped;
  }
}
