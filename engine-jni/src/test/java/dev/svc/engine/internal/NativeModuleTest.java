package dev.svc.engine.internal;

import static dev.svc.engine.internal.BridgeFixture.NO_DEADLINE;
import static dev.svc.engine.internal.BridgeFixture.UNLIMITED;
import static dev.svc.engine.internal.BridgeFixture.bytes;
import static dev.svc.engine.internal.BridgeFixture.wasm;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compiling, (de)serializing, introspecting and linking modules. */
class NativeModuleTest {

  private long engine;

  @BeforeEach
  void newEngine() {
    BridgeFixture.loadNatives();
    engine = Native.engineNew(true, false, false, 0, 0, 0);
  }

  @AfterEach
  void freeEngine() {
    Native.engineFree(engine);
  }

  /** Instantiates module on engine and checks one echo round trip. */
  private static void assertEchoes(long engine, long module) {
    long pre = Native.instancePreNew(engine, module);
    long instance = Native.instanceNew(pre, -1, null);
    try {
      Native.initialize(instance, NO_DEADLINE, UNLIMITED);
      assertThat(Native.call(instance, bytes("Eround trip"), NO_DEADLINE, UNLIMITED)).isEqualTo(bytes("Eround trip"));
    } finally {
      Native.instanceFree(instance);
      Native.instancePreFree(pre);
    }
  }

  @Test
  void a_serialized_module_deserializes_and_runs() {
    long module = Native.moduleCompile(engine, wasm("bridge_abi"));
    byte[] artifact = Native.moduleSerialize(module);
    Native.moduleFree(module);
    long loaded = Native.moduleDeserialize(engine, artifact);
    try {
      assertEchoes(engine, loaded);
    } finally {
      Native.moduleFree(loaded);
    }
  }

  @Test
  void a_serialized_module_loads_from_a_file(@TempDir Path dir) throws IOException {
    long module = Native.moduleCompile(engine, wasm("bridge_abi"));
    Path file = dir.resolve("bridge_abi.cwasm");
    Files.write(file, Native.moduleSerialize(module));
    Native.moduleFree(module);
    long loaded = Native.moduleDeserializeFile(engine, file.toString());
    try {
      assertEchoes(engine, loaded);
    } finally {
      Native.moduleFree(loaded);
    }
  }

  @Test
  void an_artifact_from_an_engine_with_other_options_is_refused() {
    long fuelEngine = Native.engineNew(true, true, false, 0, 0, 0);
    try {
      long module = Native.moduleCompile(fuelEngine, wasm("bridge_abi"));
      byte[] artifact = Native.moduleSerialize(module);
      Native.moduleFree(module);
      assertThatThrownBy(() -> Native.moduleDeserialize(engine, artifact)).isInstanceOf(WasmError.class);
    } finally {
      Native.engineFree(fuelEngine);
    }
  }

  @Test
  void garbage_is_refused_by_compile_and_deserialize() {
    byte[] garbage = bytes("this is not wasm at all");
    assertThatThrownBy(() -> Native.moduleCompile(engine, garbage))
        .isInstanceOf(WasmError.class)
        .hasMessageNotContaining("\u0000");
    assertThatThrownBy(() -> Native.moduleDeserialize(engine, garbage)).isInstanceOf(WasmError.class);
    assertThatThrownBy(() -> Native.moduleDeserialize(engine, new byte[0])).isInstanceOf(WasmError.class);
    assertThatThrownBy(() -> Native.moduleCompile(engine, new byte[0])).isInstanceOf(WasmError.class);
  }

  @Test
  void a_missing_file_is_refused(@TempDir Path dir) {
    assertThatThrownBy(() -> Native.moduleDeserializeFile(engine, dir.resolve("none.cwasm").toString()))
        .isInstanceOf(WasmError.class);
  }

  @Test
  void imports_and_exports_are_listed_with_their_kinds() {
    long module = Native.moduleCompile(engine, wasm("bridge_unlinked"));
    try {
      assertThat(Native.moduleImports(module)).containsExactly(
          "env\u0000missing\u0000func", "wasi_snapshot_preview1\u0000fd_write\u0000func");
      assertThat(Native.moduleExports(module)).containsExactly(
          "memory\u0000memory", "answer\u0000global", "engine_abi_version\u0000func");
    } finally {
      Native.moduleFree(module);
    }
  }

  @Test
  void the_abi_module_imports_wasi_and_host_call() {
    long module = Native.moduleCompile(engine, wasm("bridge_abi"));
    try {
      assertThat(Native.moduleImports(module)).containsExactly(
          "wasi_snapshot_preview1\u0000fd_write\u0000func", "wasi_snapshot_preview1\u0000proc_exit\u0000func",
          "engine\u0000host_call\u0000func");
      assertThat(Native.moduleExports(module)).contains("engine_call\u0000func", "_initialize\u0000func");
    } finally {
      Native.moduleFree(module);
    }
  }

  @Test
  void an_unresolved_import_fails_linking() {
    long module = Native.moduleCompile(engine, wasm("bridge_unlinked"));
    try {
      assertThatThrownBy(() -> Native.instancePreNew(engine, module))
          .isInstanceOf(WasmError.class)
          .hasMessageContaining("env::missing");
    } finally {
      Native.moduleFree(module);
    }
  }

  @Test
  void an_abi_export_with_the_wrong_type_is_refused() {
    long module = Native.moduleCompile(engine, wasm("bridge_bad_alloc"));
    try {
      assertThatThrownBy(() -> Native.instancePreNew(engine, module))
          .isInstanceOf(WasmError.class)
          .hasMessage("the module exports `engine_alloc` with the wrong type; expected (i32) -> i32");
    } finally {
      Native.moduleFree(module);
    }
  }

  @Test
  void a_module_of_another_engine_is_refused() {
    long other = Native.engineNew(true, false, false, 0, 0, 0);
    long module = Native.moduleCompile(other, wasm("bridge_abi"));
    try {
      assertThatThrownBy(() -> Native.instancePreNew(engine, module))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("the module was compiled by another engine");
    } finally {
      Native.moduleFree(module);
      Native.engineFree(other);
    }
  }

  @Test
  void calls_needing_a_missing_export_fail_with_wasm_error() {
    long module = Native.moduleCompile(engine, wasm("bridge_bare"));
    long pre = Native.instancePreNew(engine, module);
    long instance = Native.instanceNew(pre, -1, null);
    try {
      Native.initialize(instance, NO_DEADLINE, UNLIMITED); // no _initialize: nothing to do
      assertThatThrownBy(() -> Native.call(instance, bytes("E"), NO_DEADLINE, UNLIMITED))
          .isInstanceOf(WasmError.class)
          .hasMessage("the module doesn't export `memory`");
      assertThatThrownBy(() -> Native.abiVersion(instance, NO_DEADLINE, UNLIMITED))
          .isInstanceOf(WasmError.class)
          .hasMessage("the module doesn't export `engine_abi_version`");
      assertThatThrownBy(() -> Native.memoryRead(instance, 0, 0)).isInstanceOf(WasmError.class);
      assertThat(Native.instanceMemorySize(instance)).isZero();
      assertThat(Native.isStopped(instance)).isFalse();
    } finally {
      Native.instanceFree(instance);
      Native.instancePreFree(pre);
      Native.moduleFree(module);
    }
  }

  @Test
  void objects_outlive_the_handles_they_were_made_from() {
    long module = Native.moduleCompile(engine, wasm("bridge_abi"));
    long pre = Native.instancePreNew(engine, module);
    Native.moduleFree(module);
    long instance = Native.instanceNew(pre, -1, null);
    Native.instancePreFree(pre);
    Native.engineFree(engine);
    try {
      Native.initialize(instance, NO_DEADLINE, UNLIMITED);
      assertThat(Native.call(instance, bytes("Estill here"), NO_DEADLINE, UNLIMITED)).isEqualTo(bytes("Estill here"));
    } finally {
      Native.instanceFree(instance);
      engine = Native.engineNew(false, false, false, 0, 0, 0); // for @AfterEach
    }
  }

  @Test
  void a_pooling_engine_runs_instances_and_refuses_more_than_its_slots() {
    long pooled = Native.engineNew(true, false, false, 0, 2, 16 << 20);
    long module = Native.moduleCompile(pooled, wasm("bridge_abi"));
    long pre = Native.instancePreNew(pooled, module);
    long first = Native.instanceNew(pre, -1, null);
    long second = Native.instanceNew(pre, -1, null);
    try {
      assertThatThrownBy(() -> Native.instanceNew(pre, -1, null)).isInstanceOf(WasmError.class);
      Native.initialize(first, NO_DEADLINE, UNLIMITED);
      assertThat(Native.call(first, bytes("Epooled"), NO_DEADLINE, UNLIMITED)).isEqualTo(bytes("Epooled"));
      Native.instanceFree(second);
      second = Native.instanceNew(pre, -1, null); // the freed slot is reused
    } finally {
      Native.instanceFree(first);
      Native.instanceFree(second);
      Native.instancePreFree(pre);
      Native.moduleFree(module);
      Native.engineFree(pooled);
    }
  }

  @Test
  void the_pool_memory_cap_counts_as_the_memory_limit() {
    long pooled = Native.engineNew(false, false, false, 0, 1, 1 << 20);
    long module = Native.moduleCompile(pooled, wasm("bridge_abi"));
    long pre = Native.instancePreNew(pooled, module);
    long instance = Native.instanceNew(pre, -1, null);
    try {
      assertThatThrownBy(() -> Native.call(instance, bytes("G"), NO_DEADLINE, UNLIMITED))
          .isInstanceOfSatisfying(GuestTrap.class,
              trap -> assertThat(trap.kind()).isEqualTo(GuestTrap.Kind.MEMORY));
      assertThat(Native.instanceMemorySize(instance)).isEqualTo(1 << 20);
    } finally {
      Native.instanceFree(instance);
      Native.instancePreFree(pre);
      Native.moduleFree(module);
      Native.engineFree(pooled);
    }
  }

  @Test
  void engine_options_out_of_range_are_refused() {
    assertThatThrownBy(() -> Native.engineNew(false, false, false, -1, 0, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Native.engineNew(false, false, false, 2L << 30, 0, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Native.engineNew(false, false, false, 0, -1, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Native.engineNew(false, false, false, 0, 1001, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Native.engineNew(false, false, false, 0, 1, 5L << 30))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void an_engine_with_wasm_exceptions_compiles_and_runs() {
    long withExceptions = Native.engineNew(true, true, true, 1 << 20, 0, 0);
    long module = Native.moduleCompile(withExceptions, wasm("bridge_abi"));
    try {
      assertEchoes(withExceptions, module);
    } finally {
      Native.moduleFree(module);
      Native.engineFree(withExceptions);
    }
  }
}
