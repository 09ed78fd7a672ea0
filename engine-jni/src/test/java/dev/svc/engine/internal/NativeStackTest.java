package dev.svc.engine.internal;

import static dev.svc.engine.internal.BridgeFixture.NO_DEADLINE;
import static dev.svc.engine.internal.BridgeFixture.UNLIMITED;
import static dev.svc.engine.internal.BridgeFixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Guest code runs on the calling thread when its stack has room, and on the instance's big-stack
 * helper thread when it hasn't; the other bridge tests run on both paths ({@link CallingThread}).
 */
class NativeStackTest {

  private static final BridgeFixture.Loaded abi = BridgeFixture.Loaded.sharedAbi();

  @Test
  void a_call_from_a_roomy_thread_runs_its_host_calls_on_that_thread() throws Exception {
    assertThat(hostCallThreadsOf(CallingThread.ROOMY)).containsOnly(Thread.currentThread().getName());
  }

  @Test
  void a_call_from_a_tiny_stack_runs_on_the_instances_helper_thread() throws Exception {
    assertThat(hostCallThreadsOf(CallingThread.TINY)).containsOnly(CallingThread.HELPER);
  }

  @Test
  void freeing_the_instance_ends_its_helper_thread() throws Exception {
    long helpersBefore = helperThreads();
    long instance = abi.instance(request -> request);
    try {
      CallingThread.TINY.run(() -> Native.call(instance, bytes("H"), NO_DEADLINE, UNLIMITED));

      assertThat(helperThreads()).isEqualTo(helpersBefore + 1);
    } finally {
      Native.instanceFree(instance);
    }
    assertThat(helperThreads()).isEqualTo(helpersBefore);
  }

  @Test
  void an_instance_used_only_from_roomy_threads_starts_no_helper() {
    long helpersBefore = helperThreads();
    long instance = abi.instance(request -> request);
    try {
      Native.call(instance, bytes("H"), NO_DEADLINE, UNLIMITED);

      assertThat(helperThreads()).isEqualTo(helpersBefore);
    } finally {
      Native.instanceFree(instance);
    }
  }

  // Before the helper existed, this call overflowed the 64 KiB stack and the JVM died.
  @Test
  void unbounded_recursion_from_a_tiny_stack_is_a_stack_overflow_trap() throws Exception {
    CallingThread.TINY.run(() -> {
      long instance = abi.instance(request -> request);
      try {
        GuestTrap trap = catchThrowableOfType(
            GuestTrap.class, () -> Native.call(instance, bytes("R"), NO_DEADLINE, UNLIMITED));

        assertThat(trap.kind()).isEqualTo(GuestTrap.Kind.STACK_OVERFLOW);
        assertThat(Native.isStopped(instance)).isTrue();
      } finally {
        Native.instanceFree(instance);
      }
    });
  }

  /** The threads that answered three host calls of one instance, each made from {@code caller}. */
  private static List<String> hostCallThreadsOf(CallingThread caller) throws Exception {
    List<String> threads = new ArrayList<>();
    long instance = abi.instance(request -> {
      threads.add(Thread.currentThread().getName());
      return request;
    });
    try {
      for (int i = 0; i < 3; i++) {
        String question = String.valueOf(i);
        caller.run(() -> assertThat(Native.call(instance, bytes("H" + question), NO_DEADLINE, UNLIMITED))
            .isEqualTo(bytes("!" + question)));
      }
    } finally {
      Native.instanceFree(instance);
    }
    assertThat(threads).hasSize(3);
    return threads;
  }

  private static long helperThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().equals(CallingThread.HELPER))
        .count();
  }
}
