package dev.svc.engine.internal;

import static dev.svc.engine.internal.BridgeFixture.NO_DEADLINE;
import static dev.svc.engine.internal.BridgeFixture.UNLIMITED;
import static dev.svc.engine.internal.BridgeFixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each way a guest call can end abnormally is classified, and stops the instance for good. */
class NativeTrapTest {

  private static final BridgeFixture.Loaded abi = BridgeFixture.Loaded.sharedAbi();

  /** Runs one request on a fresh instance and returns the trap it must end with. */
  private static GuestTrap trapOf(String request, long maxMemory, long deadlineTicks, long fuel) {
    long instance = abi.instance(maxMemory, r -> r);
    try {
      Throwable thrown = catchAll(() -> Native.call(instance, bytes(request), deadlineTicks, fuel));
      assertThat(thrown).isInstanceOf(GuestTrap.class);
      assertThat(Native.isStopped(instance)).isTrue();
      return (GuestTrap) thrown;
    } finally {
      Native.instanceFree(instance);
    }
  }

  private static GuestTrap trapOf(String request) {
    return trapOf(request, -1, NO_DEADLINE, UNLIMITED);
  }

  private static Throwable catchAll(Runnable action) {
    try {
      action.run();
      return null;
    } catch (Throwable t) {
      return t;
    }
  }

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void unreachable_is_unreachable(CallingThread thread) throws Exception {
    thread.run(() -> {
      GuestTrap trap = trapOf("U");
      assertThat(trap.kind()).isEqualTo(GuestTrap.Kind.UNREACHABLE);
      assertThat(trap.getMessage()).contains("unreachable");
    });
  }

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void proc_exit_is_exit_with_its_code(CallingThread thread) throws Exception {
    thread.run(() -> {
      GuestTrap trap = trapOf("X");
      assertThat(trap.kind()).isEqualTo(GuestTrap.Kind.EXIT);
      assertThat(trap.exitCode()).isEqualTo(3);
    });
  }

  @Test
  void an_out_of_bounds_load_is_memory() {
    assertThat(trapOf("M").kind()).isEqualTo(GuestTrap.Kind.MEMORY);
  }

  @Test
  void a_trap_when_memory_is_at_its_limit_is_memory() {
    GuestTrap trap = trapOf("G", 4 << 20, NO_DEADLINE, UNLIMITED);
    assertThat(trap.kind()).isEqualTo(GuestTrap.Kind.MEMORY);
  }

  @Test
  void the_memory_limit_refuses_growth_instead_of_trapping() {
    long instance = abi.instance(4 << 20, r -> r);
    try {
      catchAll(() -> Native.call(instance, bytes("G"), NO_DEADLINE, UNLIMITED));
      assertThat(Native.instanceMemorySize(instance)).isEqualTo(4 << 20);
    } finally {
      Native.instanceFree(instance);
    }
  }

  @Test
  void division_by_zero_is_other() {
    assertThat(trapOf("D").kind()).isEqualTo(GuestTrap.Kind.OTHER);
  }

  @Test
  void a_response_outside_memory_is_bad_response() {
    GuestTrap trap = trapOf("B");
    assertThat(trap.kind()).isEqualTo(GuestTrap.Kind.BAD_RESPONSE);
    assertThat(trap.getMessage()).isEqualTo("the module returned a response outside its memory");
  }

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void an_infinite_loop_runs_out_of_fuel(CallingThread thread) throws Exception {
    thread.run(() -> {
      GuestTrap trap = trapOf("L", -1, NO_DEADLINE, 1_000_000);
      assertThat(trap.kind()).isEqualTo(GuestTrap.Kind.OUT_OF_FUEL);
    });
  }

  @Test
  void fuel_is_reset_on_every_call() {
    long instance = abi.instance(r -> r);
    try {
      for (int i = 0; i < 50; i++) {
        // Each echo costs a few hundred fuel; the budget is per call, not per instance.
        assertThat(Native.call(instance, bytes("E"), NO_DEADLINE, 10_000)).isEqualTo(bytes("E"));
      }
    } finally {
      Native.instanceFree(instance);
    }
  }

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void an_infinite_loop_is_interrupted_at_its_deadline(CallingThread thread) throws Exception {
    thread.run(() -> {
      AtomicBoolean running = new AtomicBoolean(true);
      Thread ticker = new Thread(() -> {
        while (running.get()) {
          Native.engineIncrementEpoch(abi.engine);
          try {
            Thread.sleep(1);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "test-epoch-ticker");
      ticker.setDaemon(true);
      ticker.start();
      try {
        GuestTrap trap = trapOf("L", -1, 5, UNLIMITED);
        assertThat(trap.kind()).isEqualTo(GuestTrap.Kind.INTERRUPT);
      } finally {
        running.set(false);
        ticker.join();
      }
    });
  }

  @Test
  void unbounded_recursion_is_stack_overflow() throws InterruptedException {
    try (BridgeFixture.Loaded small = new BridgeFixture.Loaded("bridge_abi", false, false, 256 << 10, 0)) {
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      // Guest code runs on the calling thread's stack: give it far more than max_wasm_stack.
      Thread caller = new Thread(null, () -> {
        long instance = small.instance(r -> r);
        try {
          thrown.set(catchAll(() -> Native.call(instance, bytes("R"), NO_DEADLINE, UNLIMITED)));
        } finally {
          Native.instanceFree(instance);
        }
      }, "test-deep-stack", 8 << 20);
      caller.start();
      caller.join();
      assertThat(thrown.get()).isInstanceOfSatisfying(GuestTrap.class,
          trap -> assertThat(trap.kind()).isEqualTo(GuestTrap.Kind.STACK_OVERFLOW));
    }
  }

  @Test
  void a_stopped_instance_refuses_every_guest_call_without_entering_the_guest() {
    long instance = abi.instance(r -> r);
    try {
      assertThatThrownBy(() -> Native.call(instance, bytes("U"), NO_DEADLINE, UNLIMITED))
          .isInstanceOf(GuestTrap.class);
      String stopped = "the instance stopped earlier";
      assertThatThrownBy(() -> Native.call(instance, bytes("E"), NO_DEADLINE, UNLIMITED)).hasMessage(stopped);
      assertThatThrownBy(() -> Native.initialize(instance, NO_DEADLINE, UNLIMITED)).hasMessage(stopped);
      assertThatThrownBy(() -> Native.abiVersion(instance, NO_DEADLINE, UNLIMITED)).hasMessage(stopped);
      assertThatThrownBy(() -> Native.alloc(instance, 1, NO_DEADLINE, UNLIMITED)).hasMessage(stopped);
      assertThatThrownBy(() -> Native.free(instance, 1024, 1, NO_DEADLINE, UNLIMITED)).hasMessage(stopped);
      assertThatThrownBy(() -> Native.callRaw(instance, 1024, 1, NO_DEADLINE, UNLIMITED))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage(stopped);
      // Reading what it left behind still works.
      assertThat(Native.memoryRead(instance, 1024, 1)).hasSize(1);
      assertThat(Native.instanceStderr(instance)).isEmpty();
    } finally {
      Native.instanceFree(instance);
    }
  }

  @Test
  void a_trap_in_a_start_function_fails_instantiation() {
    try (BridgeFixture.Loaded start = new BridgeFixture.Loaded("bridge_start_traps", true, false, 0, 0)) {
      assertThatThrownBy(() -> Native.instanceNew(start.pre, -1, null))
          .isInstanceOfSatisfying(GuestTrap.class,
              trap -> assertThat(trap.kind()).isEqualTo(GuestTrap.Kind.UNREACHABLE));
    }
  }

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void a_trap_inside_the_host_calls_allocation_is_reported_as_that_trap(CallingThread thread) throws Exception {
    thread.run(() -> {
      // The reply is too big for the memory limit, so the re-entrant engine_alloc returns 0.
      long instance = abi.instance(2 * 65536, r -> new byte[300_000]);
      try {
        assertThatThrownBy(() -> Native.call(instance, bytes("H"), NO_DEADLINE, UNLIMITED))
            .isInstanceOfSatisfying(GuestTrap.class, trap -> {
              assertThat(trap.kind()).isEqualTo(GuestTrap.Kind.MEMORY);
              assertThat(trap.getMessage())
                  .isEqualTo("the module couldn't allocate memory for a host function's response");
            });
      } finally {
        Native.instanceFree(instance);
      }
    });
  }

  @Test
  void kinds_keep_their_ordinals() {
    // svc_failure.h numbers the kinds the same way (the engine host sends them as numbers too);
    // reordering the enum would misclassify traps. PROCESS_DIED comes last: only Java makes it.
    assertThat(GuestTrap.Kind.values()).containsExactly(
        GuestTrap.Kind.OTHER, GuestTrap.Kind.INTERRUPT, GuestTrap.Kind.OUT_OF_FUEL, GuestTrap.Kind.MEMORY,
        GuestTrap.Kind.EXIT, GuestTrap.Kind.STACK_OVERFLOW, GuestTrap.Kind.UNREACHABLE,
        GuestTrap.Kind.HOST_EXCEPTION, GuestTrap.Kind.BAD_RESPONSE, GuestTrap.Kind.PROCESS_DIED);
  }
}
