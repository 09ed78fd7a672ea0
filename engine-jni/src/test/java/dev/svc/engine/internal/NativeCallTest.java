package dev.svc.engine.internal;

import static dev.svc.engine.internal.BridgeFixture.NO_DEADLINE;
import static dev.svc.engine.internal.BridgeFixture.UNLIMITED;
import static dev.svc.engine.internal.BridgeFixture.bytes;
import static dev.svc.engine.internal.BridgeFixture.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The round trip through {@link Native#call}, host calls, output capture and memory access. */
class NativeCallTest {

  private static final BridgeFixture.Loaded abi = BridgeFixture.Loaded.sharedAbi();

  private static long instance() {
    return abi.instance(request -> request);
  }

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void echo_returns_the_request_bytes(CallingThread thread) throws Exception {
    thread.run(() -> {
      long instance = instance();
      try {
        byte[] request = new byte[200];
        Arrays.fill(request, (byte) 'x');
        request[0] = 'E';
        assertThat(Native.call(instance, request, NO_DEADLINE, UNLIMITED)).isEqualTo(request);
        assertThat(Native.call(instance, bytes("E"), NO_DEADLINE, UNLIMITED)).isEqualTo(bytes("E"));
        assertThat(Native.isStopped(instance)).isFalse();
      } finally {
        Native.instanceFree(instance);
      }
    });
  }

  @Test
  void an_empty_request_gets_an_empty_response() {
    long instance = instance();
    try {
      assertThat(Native.call(instance, new byte[0], NO_DEADLINE, UNLIMITED)).isEmpty();
    } finally {
      Native.instanceFree(instance);
    }
  }

  @Test
  void a_round_trip_reuses_the_kept_request_buffer_and_frees_the_response() {
    long instance = instance();
    try {
      Native.call(instance, bytes("E hello"), NO_DEADLINE, UNLIMITED);
      // echo: the request buffer allocated and kept, the response allocated and freed; the C
      // request then fits the kept buffer, and the counters are read before its answer is allocated.
      assertThat(counters(instance)).as("allocs, frees").containsExactly(2, 1);

      Native.call(instance, bytes("E" + "x".repeat(20)), NO_DEADLINE, UNLIMITED);
      // A larger request: the kept buffer freed, a larger one allocated and kept, the response.
      assertThat(counters(instance)).as("allocs, frees").containsExactly(5, 4);

      Native.call(instance, bytes("E" + "x".repeat(70_000)), NO_DEADLINE, UNLIMITED);
      // Over 64 KiB: a buffer of its own, freed with the response; the kept one stays.
      assertThat(counters(instance)).as("allocs, frees").containsExactly(8, 7);
    } finally {
      Native.instanceFree(instance);
    }
  }

  private static int[] counters(long instance) {
    ByteBuffer counters = ByteBuffer.wrap(Native.call(instance, bytes("C"), NO_DEADLINE, UNLIMITED))
        .order(ByteOrder.LITTLE_ENDIAN);
    return new int[] {counters.getInt(), counters.getInt()};
  }

  @Test
  void initialize_runs_underscore_initialize_even_with_epoch_interruption_on() {
    // A fresh store's epoch deadline is 0: without the bridge setting one, _initialize would trap.
    long instance = Native.instanceNew(abi.pre, -1, null);
    try {
      assertThat(Native.call(instance, bytes("I"), NO_DEADLINE, UNLIMITED)).containsExactly(0, 0, 0, 0);
      Native.initialize(instance, NO_DEADLINE, UNLIMITED);
      assertThat(Native.call(instance, bytes("I"), NO_DEADLINE, UNLIMITED)).containsExactly(1, 0, 0, 0);
      assertThat(Native.abiVersion(instance, NO_DEADLINE, UNLIMITED)).isEqualTo(1);
    } finally {
      Native.instanceFree(instance);
    }
  }

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void a_host_call_gets_the_request_and_its_reply_is_allocated_in_the_guest(CallingThread thread) throws Exception {
    thread.run(() -> {
      List<String> seen = new ArrayList<>();
      long instance = abi.instance(request -> {
        seen.add(text(request));
        return bytes("reply to " + text(request));
      });
      try {
        byte[] response = Native.call(instance, bytes("Hask"), NO_DEADLINE, UNLIMITED);
        assertThat(text(response)).isEqualTo("!reply to ask");
        assertThat(seen).containsExactly("ask");
      } finally {
        Native.instanceFree(instance);
      }
    });
  }

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void a_host_reply_that_grows_memory_is_written_at_the_new_base(CallingThread thread) throws Exception {
    thread.run(() -> {
      byte[] big = new byte[3 * 65536 + 17]; // more than the module's two initial pages
      for (int i = 0; i < big.length; i++) {
        big[i] = (byte) (i * 31);
      }
      long instance = abi.instance(request -> big);
      try {
        long before = Native.instanceMemorySize(instance);
        byte[] response = Native.call(instance, bytes("H"), NO_DEADLINE, UNLIMITED);
        assertThat(Native.instanceMemorySize(instance)).isGreaterThan(before);
        assertThat(response[0]).isEqualTo((byte) '!');
        assertThat(Arrays.copyOfRange(response, 1, response.length)).isEqualTo(big);
      } finally {
        Native.instanceFree(instance);
      }
    });
  }

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void many_host_calls_in_a_row_work(CallingThread thread) throws Exception {
    thread.run(() -> {
      long instance = abi.instance(request -> request);
      try {
        for (int i = 0; i < 10_000; i++) {
          byte[] response = Native.call(instance, bytes("H" + i), NO_DEADLINE, UNLIMITED);
          assertThat(text(response)).isEqualTo("!" + i);
        }
      } finally {
        Native.instanceFree(instance);
      }
    });
  }

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void a_handler_that_throws_stops_the_instance_and_its_exception_reaches_the_caller(CallingThread thread)
      throws Exception {
    thread.run(() -> {
      IllegalStateException thrown = new IllegalStateException("the handler broke");
      long instance = abi.instance(request -> {
        throw thrown;
      });
      try {
        assertThatThrownBy(() -> Native.call(instance, bytes("Hx"), NO_DEADLINE, UNLIMITED)).isSameAs(thrown);
        assertThat(Native.isStopped(instance)).isTrue();
        assertThatThrownBy(() -> Native.call(instance, bytes("E"), NO_DEADLINE, UNLIMITED))
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("the instance stopped earlier");
      } finally {
        Native.instanceFree(instance);
      }
    });
  }

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void a_handler_that_returns_null_is_a_host_exception_trap(CallingThread thread) throws Exception {
    thread.run(() -> {
      long instance = abi.instance(request -> null);
      try {
        assertThatThrownBy(() -> Native.call(instance, bytes("Hx"), NO_DEADLINE, UNLIMITED))
            .isInstanceOfSatisfying(GuestTrap.class, trap -> {
              assertThat(trap.kind()).isEqualTo(GuestTrap.Kind.HOST_EXCEPTION);
              assertThat(trap.getMessage()).isEqualTo("the host call handler returned null");
            });
        assertThat(Native.isStopped(instance)).isTrue();
      } finally {
        Native.instanceFree(instance);
      }
    });
  }

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void a_host_call_without_a_handler_is_a_host_exception_trap(CallingThread thread) throws Exception {
    thread.run(() -> {
      long instance = abi.instance(null);
      try {
        assertThatThrownBy(() -> Native.call(instance, bytes("Hx"), NO_DEADLINE, UNLIMITED))
            .isInstanceOfSatisfying(GuestTrap.class,
                trap -> assertThat(trap.kind()).isEqualTo(GuestTrap.Kind.HOST_EXCEPTION));
      } finally {
        Native.instanceFree(instance);
      }
    });
  }

  @Test
  void a_request_the_module_cannot_allocate_returns_null_and_the_instance_keeps_working() {
    long instance = abi.instance(2 * 65536, request -> request); // no room to grow at all
    try {
      assertThat(Native.call(instance, new byte[200_000], NO_DEADLINE, UNLIMITED)).isNull();
      assertThat(Native.isStopped(instance)).isFalse();
      assertThat(Native.call(instance, bytes("Eok"), NO_DEADLINE, UNLIMITED)).isEqualTo(bytes("Eok"));
    } finally {
      Native.instanceFree(instance);
    }
  }

  @Test
  void stderr_keeps_the_first_line_a_marker_and_the_last_line() {
    long instance = instance();
    try {
      Native.call(instance, bytes("Sfatal error: first line\n"), NO_DEADLINE, UNLIMITED);
      byte[] junk = new byte[10_001];
      Arrays.fill(junk, (byte) '.');
      junk[0] = 'S';
      Native.call(instance, junk, NO_DEADLINE, UNLIMITED);
      Native.call(instance, bytes("Sat the last line\n"), NO_DEADLINE, UNLIMITED);

      String stderr = text(Native.instanceStderr(instance));
      assertThat(stderr).startsWith("fatal error: first line\n");
      assertThat(stderr).contains("\n[...]\n");
      assertThat(stderr).endsWith("at the last line\n");
      assertThat(stderr.length()).isLessThanOrEqualTo(1024 + 3072 + 16);
      assertThat(Native.instanceStdout(instance)).isEmpty();
    } finally {
      Native.instanceFree(instance);
    }
  }

  @Test
  void short_output_is_kept_whole_without_a_marker() {
    long instance = instance();
    try {
      Native.call(instance, bytes("Oline one\n"), NO_DEADLINE, UNLIMITED);
      byte[] middle = new byte[3001];
      Arrays.fill(middle, (byte) '-');
      middle[0] = 'O';
      Native.call(instance, middle, NO_DEADLINE, UNLIMITED);
      Native.call(instance, bytes("Oline two\n"), NO_DEADLINE, UNLIMITED);
      String stdout = text(Native.instanceStdout(instance));
      assertThat(stdout).isEqualTo("line one\n" + "-".repeat(3000) + "line two\n");
      assertThat(Native.instanceStderr(instance)).isEmpty();
    } finally {
      Native.instanceFree(instance);
    }
  }

  @Test
  void output_exactly_head_plus_tail_long_has_no_marker_and_one_byte_more_has() {
    long instance = instance();
    try {
      byte[] write = new byte[1 + 1024 + 3072];
      Arrays.fill(write, (byte) 'a');
      write[0] = 'S';
      Native.call(instance, write, NO_DEADLINE, UNLIMITED);
      assertThat(text(Native.instanceStderr(instance))).isEqualTo("a".repeat(4096));
      Native.call(instance, bytes("Sb"), NO_DEADLINE, UNLIMITED);
      assertThat(text(Native.instanceStderr(instance)))
          .isEqualTo("a".repeat(1024) + "\n[...]\n" + "a".repeat(3071) + "b");
    } finally {
      Native.instanceFree(instance);
    }
  }

  @Test
  void memory_read_and_write_are_bounds_checked() {
    long instance = instance();
    try {
      long size = Native.instanceMemorySize(instance);
      assertThat(size).isEqualTo(2 * 65536);
      Native.memoryWrite(instance, 100, bytes("abc"));
      assertThat(Native.memoryRead(instance, 100, 3)).isEqualTo(bytes("abc"));
      Native.memoryWrite(instance, (int) size - 3, bytes("end"));
      assertThat(Native.memoryRead(instance, (int) size - 3, 3)).isEqualTo(bytes("end"));
      assertThat(Native.memoryRead(instance, (int) size, 0)).isEmpty();

      assertThatThrownBy(() -> Native.memoryWrite(instance, (int) size - 2, bytes("end")))
          .isInstanceOf(IndexOutOfBoundsException.class)
          .hasMessage("3 bytes at address 131070 don't fit in the module's memory of 131072 bytes");
      assertThatThrownBy(() -> Native.memoryRead(instance, (int) size - 2, 3))
          .isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> Native.memoryRead(instance, -1, 1)) // address 0xFFFFFFFF
          .isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> Native.memoryRead(instance, 0, -1))
          .isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> Native.memoryRead(instance, 0, Integer.MAX_VALUE))
          .isInstanceOf(IndexOutOfBoundsException.class);
    } finally {
      Native.instanceFree(instance);
    }
  }

  @Test
  void raw_exports_make_the_same_round_trip_by_hand() {
    long instance = instance();
    try {
      byte[] request = bytes("Eraw");
      int ptr = Native.alloc(instance, request.length, NO_DEADLINE, UNLIMITED);
      Native.memoryWrite(instance, ptr, request);
      long packed = Native.callRaw(instance, ptr, request.length, NO_DEADLINE, UNLIMITED);
      int responsePtr = (int) (packed >>> 32);
      int responseLen = (int) packed;
      assertThat(Native.memoryRead(instance, responsePtr, responseLen)).isEqualTo(request);
      Native.free(instance, responsePtr, responseLen, NO_DEADLINE, UNLIMITED);
      Native.free(instance, ptr, request.length, NO_DEADLINE, UNLIMITED);
    } finally {
      Native.instanceFree(instance);
    }
  }

  @Test
  void instances_of_one_pre_are_independent() {
    long first = instance();
    long second = instance();
    try {
      assertThatThrownBy(() -> Native.call(first, bytes("U"), NO_DEADLINE, UNLIMITED))
          .isInstanceOf(GuestTrap.class);
      assertThat(Native.call(second, bytes("Estill fine"), NO_DEADLINE, UNLIMITED))
          .isEqualTo(bytes("Estill fine"));
    } finally {
      Native.instanceFree(first);
      Native.instanceFree(second);
    }
  }

  @Test
  void instances_on_several_threads_run_at_once() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int id = t;
        results.add(threads.submit(() -> {
          long instance = abi.instance(request -> request);
          try {
            int ok = 0;
            for (int i = 0; i < 2_000; i++) {
              byte[] request = bytes((i % 2 == 0 ? "E" : "H") + id + ":" + i);
              byte[] response = Native.call(instance, request, NO_DEADLINE, UNLIMITED);
              String expected = i % 2 == 0 ? text(request) : "!" + text(request).substring(1);
              ok += text(response).equals(expected) ? 1 : 0;
            }
            return ok;
          } finally {
            Native.instanceFree(instance);
          }
        }));
      }
      for (Future<Integer> result : results) {
        assertThat(result.get()).isEqualTo(2_000);
      }
    } finally {
      threads.shutdown();
    }
  }
}
