package dev.svc.engine.internal;

import static dev.svc.engine.internal.BridgeFixture.NO_DEADLINE;
import static dev.svc.engine.internal.BridgeFixture.UNLIMITED;
import static dev.svc.engine.internal.BridgeFixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.function.Executable;

/** Null, freed, foreign and busy handles throw instead of crashing the JVM. */
class NativeHandleTest {

  private static final BridgeFixture.Loaded abi = BridgeFixture.Loaded.sharedAbi();

  private static void assertNullHandle(Executable call, String what) {
    assertThatThrownBy(call::execute)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the " + what + " handle is 0 (null)");
  }

  private static void assertDeadHandle(Executable call, String what) {
    assertThatThrownBy(call::execute)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the " + what + " handle was freed or is not a " + what + " handle");
  }

  @Test
  void zero_handles_throw_illegal_argument() {
    assertNullHandle(() -> Native.engineIncrementEpoch(0), "engine");
    assertNullHandle(() -> Native.engineFree(0), "engine");
    assertNullHandle(() -> Native.moduleCompile(0, new byte[8]), "engine");
    assertNullHandle(() -> Native.moduleSerialize(0), "module");
    assertNullHandle(() -> Native.moduleImports(0), "module");
    assertNullHandle(() -> Native.moduleExports(0), "module");
    assertNullHandle(() -> Native.moduleFree(0), "module");
    assertNullHandle(() -> Native.instancePreNew(0, abi.module), "engine");
    assertNullHandle(() -> Native.instancePreNew(abi.engine, 0), "module");
    assertNullHandle(() -> Native.instancePreFree(0), "instance-pre");
    assertNullHandle(() -> Native.instanceNew(0, -1, null), "instance-pre");
    assertNullHandle(() -> Native.instanceFree(0), "instance");
    assertNullHandle(() -> Native.instanceStderr(0), "instance");
    assertNullHandle(() -> Native.instanceStdout(0), "instance");
    assertNullHandle(() -> Native.instanceMemorySize(0), "instance");
    assertNullHandle(() -> Native.isStopped(0), "instance");
    assertNullHandle(() -> Native.initialize(0, NO_DEADLINE, UNLIMITED), "instance");
    assertNullHandle(() -> Native.abiVersion(0, NO_DEADLINE, UNLIMITED), "instance");
    assertNullHandle(() -> Native.call(0, new byte[1], NO_DEADLINE, UNLIMITED), "instance");
    assertNullHandle(() -> Native.alloc(0, 1, NO_DEADLINE, UNLIMITED), "instance");
    assertNullHandle(() -> Native.free(0, 1, 1, NO_DEADLINE, UNLIMITED), "instance");
    assertNullHandle(() -> Native.callRaw(0, 1, 1, NO_DEADLINE, UNLIMITED), "instance");
    assertNullHandle(() -> Native.memoryWrite(0, 0, new byte[1]), "instance");
    assertNullHandle(() -> Native.memoryRead(0, 0, 1), "instance");
  }

  @Test
  void freed_handles_throw_illegal_state_and_double_frees_too() {
    long engine = Native.engineNew(false, false, false, 0, 0, 0);
    long module = Native.moduleCompile(engine, BridgeFixture.wasm("bridge_abi"));
    long pre = Native.instancePreNew(engine, module);
    long instance = Native.instanceNew(pre, -1, null);
    Native.instanceFree(instance);
    Native.instancePreFree(pre);
    Native.moduleFree(module);
    Native.engineFree(engine);

    assertDeadHandle(() -> Native.instanceFree(instance), "instance");
    assertDeadHandle(() -> Native.call(instance, bytes("E"), NO_DEADLINE, UNLIMITED), "instance");
    assertDeadHandle(() -> Native.isStopped(instance), "instance");
    assertDeadHandle(() -> Native.memoryRead(instance, 0, 1), "instance");
    assertDeadHandle(() -> Native.instanceStderr(instance), "instance");
    assertDeadHandle(() -> Native.instancePreFree(pre), "instance-pre");
    assertDeadHandle(() -> Native.instanceNew(pre, -1, null), "instance-pre");
    assertDeadHandle(() -> Native.moduleFree(module), "module");
    assertDeadHandle(() -> Native.moduleSerialize(module), "module");
    assertDeadHandle(() -> Native.engineFree(engine), "engine");
    assertDeadHandle(() -> Native.engineIncrementEpoch(engine), "engine");
    assertDeadHandle(() -> Native.moduleCompile(engine, new byte[8]), "engine");
  }

  @Test
  void a_freed_handle_stays_dead_after_its_slot_is_reused() {
    long instance = abi.instance(null);
    Native.instanceFree(instance);
    long reused = abi.instance(null);
    try {
      assertDeadHandle(() -> Native.call(instance, bytes("E"), NO_DEADLINE, UNLIMITED), "instance");
      assertThat(Native.call(reused, bytes("E"), NO_DEADLINE, UNLIMITED)).isEqualTo(bytes("E"));
    } finally {
      Native.instanceFree(reused);
    }
  }

  @Test
  void handles_of_another_type_or_made_up_are_refused() {
    assertDeadHandle(() -> Native.moduleSerialize(abi.engine), "module");
    assertDeadHandle(() -> Native.instanceNew(abi.module, -1, null), "instance-pre");
    assertDeadHandle(() -> Native.call(abi.pre, bytes("E"), NO_DEADLINE, UNLIMITED), "instance");
    for (long madeUp : new long[] {1, -1, 0x7fff_ffff_0000_0001L, Long.MIN_VALUE, 0x1_0000_0000L, 42L << 32 | 7}) {
      assertDeadHandle(() -> Native.isStopped(madeUp), "instance");
      assertDeadHandle(() -> Native.engineIncrementEpoch(madeUp), "engine");
    }
  }

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void a_handler_calling_back_into_its_instance_finds_it_busy(CallingThread thread) throws Exception {
    thread.run(() -> {
      AtomicReference<Long> self = new AtomicReference<>();
      AtomicReference<Throwable> nested = new AtomicReference<>();
      long instance = abi.instance(request -> {
        try {
          Native.call(self.get(), bytes("E"), NO_DEADLINE, UNLIMITED);
        } catch (IllegalStateException e) {
          nested.set(e);
        }
        try {
          Native.instanceFree(self.get());
        } catch (IllegalStateException e) {
          nested.get().addSuppressed(e);
        }
        return bytes("done");
      });
      self.set(instance);
      try {
        assertThat(Native.call(instance, bytes("H"), NO_DEADLINE, UNLIMITED)).isEqualTo(bytes("!done"));
        assertThat(nested.get()).hasMessageStartingWith("the instance is busy");
        assertThat(nested.get().getSuppressed()).hasSize(1);
        assertThat(Native.isStopped(instance)).isFalse();
      } finally {
        Native.instanceFree(instance);
      }
    });
  }

  @Test
  void null_arrays_and_paths_throw_null_pointer() {
    long instance = abi.instance(null);
    try {
      assertThatThrownBy(() -> Native.call(instance, null, NO_DEADLINE, UNLIMITED))
          .isInstanceOf(NullPointerException.class).hasMessage("request");
      assertThatThrownBy(() -> Native.memoryWrite(instance, 0, null))
          .isInstanceOf(NullPointerException.class).hasMessage("bytes");
      assertThatThrownBy(() -> Native.moduleCompile(abi.engine, null))
          .isInstanceOf(NullPointerException.class).hasMessage("wasm");
      assertThatThrownBy(() -> Native.moduleDeserialize(abi.engine, null))
          .isInstanceOf(NullPointerException.class).hasMessage("artifact");
      assertThatThrownBy(() -> Native.moduleDeserializeFile(abi.engine, null))
          .isInstanceOf(NullPointerException.class).hasMessage("path");
    } finally {
      Native.instanceFree(instance);
    }
  }
}
