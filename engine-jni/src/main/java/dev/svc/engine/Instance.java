package dev.svc.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.engine.internal.AbiCodec;
import dev.svc.engine.internal.GuestTrap;
import dev.svc.engine.internal.Native;
import dev.svc.engine.internal.WasmError;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The machinery of one running instance of the engine module, below the {@link Engine} façade and
 * its {@link Policy policies}: the lock that runs its calls one at a time, the holders that keep it
 * alive, the handles of policies collected unclosed, the epoch deadline and fuel of each call, and
 * the latch that keeps the first reason it stopped. It takes request bytes and answers the module's
 * response bytes; what a request or a response means is the façade's business. Calls go one way:
 * the engine and its policies call the instance, never the other way round.
 *
 * <p><b>Thread safety:</b> thread-safe; calls run one at a time (other threads wait).
 */
final class Instance {

  /** How the error of an instance that could not start begins. */
  static final String START_FAILED = "starting the Sigil module failed: ";

  private static final String START_HELP =
      "build engine.wasm from the same svc revision as this library; with Limits.maxMemory, the"
          + " module needs a few MiB to start";

  /**
   * Who calls the instance: the engine's own operations end with {@link #closeEngine()}, a policy's
   * when the instance is freed.
   */
  enum Caller {
    ENGINE,
    POLICY
  }

  private final EngineModule module;
  /** All the memory a 32-bit module can address: the cap of an instance without {@link Limits#maxMemory()}. */
  private static final long WASM32_MEMORY = 4L << 30;
  /** The unit a module's memory grows by. */
  private static final long WASM_PAGE = 64 << 10;

  private final Limits limits;
  private final HostCalls hostCalls;
  private final Guest guest;
  private final ReentrantLock lock = new ReentrantLock();
  // Handles of policies collected without close; released at the start of the next call.
  private final Queue<Long> abandoned = new ConcurrentLinkedQueue<>();
  private volatile StoppedException stopped;
  // What keeps the instance: the engine until closed, each open policy, and each running call (so a
  // policy closed inside its own host function can't free the instance under its evaluation).
  private final AtomicInteger holders = new AtomicInteger(1);
  private boolean closed; // guarded by lock: the engine's own operations are over
  private boolean freed; // guarded by lock: the instance is gone

  private Instance(EngineModule module, Limits limits, HostCalls hostCalls, Guest guest) {
    this.module = module;
    this.limits = limits;
    this.hostCalls = hostCalls;
    this.guest = guest;
  }

  /**
   * Instantiates {@code module}, runs its start function and checks its ABI version; see {@link
   * Engine#create(EngineModule, Limits, Isolation)} for what it throws. The engine is its first
   * holder.
   */
  static Instance start(EngineModule module, Limits limits, Isolation isolation) {
    long pre = module.acquire();
    HostCalls hostCalls = new HostCalls();
    Guest guest;
    try {
      guest = isolation == Isolation.PROCESS
          ? ProcessGuest.start(module, limits, hostCalls)
          : NativeGuest.start(module, pre, limits, hostCalls);
    } catch (WasmError e) {
      module.release();
      throw new StoppedException(START_FAILED + e.getMessage(), START_HELP, e);
    } catch (RuntimeException | Error e) {
      module.release();
      throw e;
    }
    Instance instance = new Instance(module, limits, hostCalls, guest);
    try {
      instance.initialize();
    } catch (RuntimeException | Error e) {
      guest.free();
      module.release();
      throw e;
    }
    return instance;
  }

  /** One request under the instance's deadline for its kind ({@link Limits#opDeadline(String)}), no host function. */
  byte[] call(ObjectNode request, Caller caller) {
    return roundTrip(AbiCodec.request(request), limits.opDeadline(request.path("op").asText()),
        Native.UNLIMITED_FUEL, Map.of(), caller);
  }

  /** {@link #call(ObjectNode, Caller)} of request bytes. */
  byte[] call(byte[] request, Caller caller) {
    return roundTrip(request, limits.opDeadline(), Native.UNLIMITED_FUEL, Map.of(), caller);
  }

  /**
   * One eval request of a policy, under the evaluation's own hard deadline when it has a timeout and
   * its fuel bound when it has one, with the policy's host functions answering the module's host
   * calls while it runs; answers the module's response as it wrote it.
   */
  byte[] evaluate(byte[] request, EvalOptions options, Map<String, HostFunction> functions) {
    Optional<Duration> deadline = options.hardDeadline(limits.grace()).or(() -> limits.opDeadline("eval"));
    if (options.fuel().isPresent() && !module.config().fuel()) {
      throw new EngineException(
          "a fuel limit needs a module built with fuel metering",
          "load the module with ModuleConfig.defaults().withFuel(true)");
    }
    long fuel = options.fuel().orElse(Native.UNLIMITED_FUEL);
    return roundTrip(request, deadline, fuel, functions, Caller.POLICY);
  }

  /**
   * Takes one more hold on the instance for a policy about to be compiled in it; {@link
   * #dropHolder()} gives it back when the compile fails, {@link #closePolicy} when the policy goes.
   *
   * @throws IllegalStateException if the engine is closed
   */
  void holdForPolicy() {
    lockOpen(Caller.ENGINE);
    holders.incrementAndGet();
    lock.unlock();
  }

  /**
   * Closes a policy: releases its handle, then lets go of the instance, which goes when nothing else
   * holds it. A stopped instance, or one this policy alone still holds, is dropped whole, so its
   * handle costs no call. From inside a host function of this instance, which can't call it, the
   * handle waits for the next call.
   */
  void closePolicy(long policy) {
    try {
      // Only this policy holding means the engine is closed and no new policy can come.
      if (stopped == null && holders.get() > 1) {
        releaseHandle(policy);
      }
    } finally {
      dropHolder();
    }
  }

  private void releaseHandle(long policy) {
    if (insideHostFunction()) {
      abandoned.add(policy);
      return;
    }
    lock.lock();
    try {
      if (!freed && stopped == null) {
        release(policy);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Queues the handle of a policy that was never closed, for release at the start of this instance's
   * next call, and lets go of the instance: a policy's cleaner runs on the cleaner's thread, maybe
   * in the middle of a call, so it never calls the module itself (bindings.md §7).
   */
  void abandon(long policy) {
    abandoned.add(policy);
    dropHolder();
  }

  /** Lets go of the instance; the last holder frees it. */
  void dropHolder() {
    if (holders.decrementAndGet() > 0) {
      return;
    }
    lock.lock();
    try {
      if (freed) {
        return;
      }
      freed = true;
      guest.free();
    } finally {
      lock.unlock();
    }
    module.release();
  }

  // INVARIANT: runs under the lock on an open instance.
  private void releaseAbandoned() {
    for (Long policy = abandoned.poll(); policy != null; policy = abandoned.poll()) {
      if (stopped != null) {
        return;
      }
      try {
        release(policy);
      } catch (EngineException gone) {
        // Nobody waits for this release; a handle the module no longer knows is released already.
      }
    }
  }

  // INVARIANT: runs under the lock on an open instance.
  private void release(long policy) {
    byte[] request = AbiCodec.request(Requests.release(policy));
    AbiCodec.decode(callModule(request, limits.opDeadline(), Native.UNLIMITED_FUEL), Released.class);
  }

  /** The (empty) body of the release op's answer. */
  private record Released() {}

  /** See {@link Engine#memorySize()}. */
  long memorySize() {
    lockOpen(Caller.ENGINE);
    try {
      return guest.memorySize();
    } finally {
      lock.unlock();
    }
  }

  /** The running module below this instance, for tests. */
  Guest guest() {
    return guest;
  }

  /**
   * Test-only: makes the host of an {@link Isolation#PROCESS} instance crash one way ({@code
   * HostChannel.CRASH_*}), under the instance's deadline for other ops, and throws the error the
   * crash stopped the instance with.
   */
  void crashHost(byte how) {
    lockOpen(Caller.ENGINE);
    try {
      ((ProcessGuest) guest).crash(how, limits.opDeadline());
    } catch (GuestTrap trap) {
      throw stoppedBy(trap, limits.opDeadline());
    } finally {
      lock.unlock();
    }
  }

  /** The error every call now throws, or empty while the instance works. Never blocks. */
  Optional<StoppedException> stopped() {
    return Optional.ofNullable(stopped);
  }

  /** Ends the engine's own operations and lets go of its hold; see {@link Engine#close()}. */
  void closeEngine() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
    } finally {
      lock.unlock();
    }
    dropHolder();
  }

  // One call under the lock, with `functions` answering the module's host calls while it runs.
  private byte[] roundTrip(
      byte[] request,
      Optional<Duration> deadline,
      long fuel,
      Map<String, HostFunction> functions,
      Caller caller) {
    throwIfStopped();
    lockOpen(caller);
    holders.incrementAndGet();
    hostCalls.install(functions);
    try {
      releaseAbandoned();
      throwIfStopped();
      return callModule(request, deadline, fuel);
    } finally {
      hostCalls.clear();
      lock.unlock();
      dropHolder();
    }
  }

  // Whether the calling thread is inside a host function of this instance: the evaluation's own
  // thread holds the lock, and the stack helper thread runs host functions for a caller that holds it.
  private boolean insideHostFunction() {
    return lock.isHeldByCurrentThread() || hostCalls.runsOn(Thread.currentThread());
  }

  // Takes the lock of an open instance for one operation; the caller unlocks. A host function that
  // calls back into the instance running it is refused instead of meeting the bridge's busy guard,
  // or, on the stack helper thread, waiting for a lock its own caller holds.
  private void lockOpen(Caller caller) {
    if (insideHostFunction()) {
      throw new EngineException(
          "the module is busy: a host function can't call back into the instance that runs it",
          "use another instance for the nested call, or compute the value before the evaluation");
    }
    lock.lock();
    // An open policy holds the instance, so only the engine's own operations can find it closed.
    if (caller == Caller.ENGINE ? closed : freed) {
      lock.unlock();
      throw new IllegalStateException("the Engine is closed; create a new one");
    }
  }

  // INVARIANT: runs under the lock on an open instance.
  private byte[] callModule(byte[] request, Optional<Duration> deadline, long fuel) {
    byte[] response;
    try {
      response = guest.call(request, deadline, fuel);
    } catch (GuestTrap trap) {
      throw stoppedBy(trap, deadline);
    } catch (RuntimeException | Error e) {
      // A host function that threw past its own handler stopped the module mid-call.
      if (guest.isStopped()) {
        throw latch(new StoppedException(
            "the Sigil module stopped: a host function failed: " + e, StoppedException.HELP_REBUILD, e));
      }
      throw e;
    }
    if (response == null) {
      throw new EngineException(
          "the module couldn't allocate memory for a request",
          "the instance is out of memory; build a new one, or raise Limits.maxMemory");
    }
    return response;
  }

  private void throwIfStopped() {
    StoppedException s = stopped;
    if (s != null) {
      throw s;
    }
  }

  // The first cause wins; later calls get this same error without entering the module.
  private StoppedException latch(StoppedException cause) {
    return latch(cause, cause);
  }

  private StoppedException latch(StoppedException now, StoppedException later) {
    if (stopped == null) {
      stopped = later;
    }
    return now;
  }

  // A killed call reports its deadline; the calls after it report that the instance died earlier.
  private StoppedException stoppedBy(GuestTrap trap, Optional<Duration> deadline) {
    String stderr = stderr();
    if (trap.kind() == GuestTrap.Kind.INTERRUPT && deadline.isPresent()) {
      return latch(
          new TimeoutException(deadline.get(), stderr),
          new StoppedException(
              "the Sigil module stopped earlier: a call ran past its hard deadline and was killed" + stderr,
              StoppedException.HELP_REBUILD, trap));
    }
    if (trap.kind() == GuestTrap.Kind.OUT_OF_FUEL) {
      return latch(
          new OutOfFuelException(stderr),
          new StoppedException(
              "the Sigil module stopped earlier: a call ran out of fuel and was stopped" + stderr,
              StoppedException.HELP_REBUILD, trap));
    }
    if (outOfMemory(trap, stderr)) {
      return latch(
          new MemoryLimitException(limits.maxMemory(), stderr, trap),
          new StoppedException(
              "the Sigil module stopped earlier: a call needed more memory than the instance may have" + stderr,
              StoppedException.HELP_REBUILD, trap));
    }
    return latch(stopped(trap, stderr));
  }

  private void initialize() {
    Optional<Duration> deadline = limits.opDeadline();
    try {
      guest.initialize(deadline);
    } catch (GuestTrap trap) {
      throw new StoppedException(
          "starting the Sigil module failed: " + why(trap) + stderr(), START_HELP, trap);
    }
    int version;
    try {
      version = guest.abiVersion(deadline);
    } catch (GuestTrap trap) {
      throw new StoppedException(
          "the Sigil module trapped while reporting its ABI version: " + why(trap) + stderr(),
          StoppedException.HELP_REBUILD, trap);
    }
    if (version != EngineModule.ABI_VERSION) {
      throw new EngineException(
          "the module speaks ABI version " + version + ", and this library version " + EngineModule.ABI_VERSION,
          "use the engine.wasm that ships with this library (EngineModule.bundled()), or one built from"
              + " the same svc revision");
    }
  }

  // The module's allocator failed (it says so on stderr), or memory was at the cap when it trapped: a
  // memory trap below the cap is an access out of bounds, a bug.
  private boolean outOfMemory(GuestTrap trap, String stderr) {
    long cap = limits.maxMemory().orElse(WASM32_MEMORY);
    return MemoryLimitException.ALLOCATION_FAILED.matcher(stderr).find()
        || trap.kind() == GuestTrap.Kind.MEMORY && guest.memorySize() + WASM_PAGE > cap;
  }

  private static StoppedException stopped(GuestTrap trap, String stderr) {
    return new StoppedException(
        "the Sigil module stopped: " + why(trap) + stderr,
        StoppedException.HELP_REBUILD
            + ". Unless the input or policy was extreme, such as nesting thousands deep, this is a"
            + " bug in the engine: please report it with the output above",
        trap);
  }

  // A module that hands back memory it doesn't have broke the ABI rather than trapped (bindings §2).
  private static String why(GuestTrap trap) {
    return switch (trap.kind()) {
      case EXIT -> "it exited with code " + trap.exitCode();
      case BAD_RESPONSE, PROCESS_DIED -> trap.getMessage();
      default -> "it trapped: " + trap.getMessage();
    };
  }

  // The module writes the reason for a fatal error to stderr; quote its first and last lines.
  private String stderr() {
    String text = new String(guest.stderr(), StandardCharsets.UTF_8).strip();
    return text.isEmpty() ? "" : "\n" + text;
  }
}
