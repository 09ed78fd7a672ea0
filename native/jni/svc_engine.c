/* Engine creation and the epoch tick; see svc_engine.h. */
#include "svc_engine.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "svc_errors.h"
#include "svc_jni.h"

#define SVC_MAX_WASM_STACK ((jlong)1 << 30)
#define SVC_WASMTIME_DEFAULT_WASM_STACK ((size_t)512 << 10)
#define SVC_MAX_POOLING_SLOTS 1000
#define SVC_MAX_POOLING_MEMORY ((jlong)4 << 30)

static _Atomic uint64_t next_serial = 1;

svc_engine *svc_engine_acquire(JNIEnv *env, jlong handle, svc_handle_slot **slot) {
    void *obj = NULL;
    svc_handle_status status = svc_handle_acquire_shared(handle, SVC_HANDLE_ENGINE, &obj, slot);
    if (status != SVC_HANDLE_OK) {
        svc_throw_handle(env, status, "engine");
        return NULL;
    }
    return obj;
}

jlong svc_engine_new(JNIEnv *env, jclass cls, jboolean epoch, jboolean fuel, jboolean exceptions,
                     jlong max_wasm_stack, jint pooling_slots, jlong pooling_max_memory) {
    (void)cls;
    const char *problem = svc_jni_load_problem();
    if (problem) {
        svc_throw_illegal_state(env, problem);
        return 0;
    }
    /* wasm_engine_new_with_config aborts the process on a config wasmtime rejects, so every
     * value is checked here first. */
    if (max_wasm_stack < 0 || max_wasm_stack > SVC_MAX_WASM_STACK) {
        svc_throw_illegal_argument(env, "maxWasmStack must be between 0 (wasmtime's default) and 1 GiB");
        return 0;
    }
    if (pooling_slots < 0 || pooling_slots > SVC_MAX_POOLING_SLOTS) {
        svc_throw_illegal_argument(env, "poolingSlots must be between 0 (no pooling) and 1000");
        return 0;
    }
    if (pooling_max_memory < 0 || pooling_max_memory > SVC_MAX_POOLING_MEMORY) {
        svc_throw_illegal_argument(env, "poolingMaxMemory must be between 0 (wasmtime's default) and 4 GiB");
        return 0;
    }
    svc_engine *engine = calloc(1, sizeof *engine);
    wasm_config_t *config = engine ? wasm_config_new() : NULL;
    if (!config) {
        free(engine);
        svc_throw_out_of_memory(env, "no native memory for a wasmtime engine");
        return 0;
    }
    wasmtime_config_epoch_interruption_set(config, epoch == JNI_TRUE);
    wasmtime_config_consume_fuel_set(config, fuel == JNI_TRUE);
    wasmtime_config_wasm_exceptions_set(config, exceptions == JNI_TRUE);
    wasmtime_config_wasm_threads_set(config, false);
    if (max_wasm_stack > 0) wasmtime_config_max_wasm_stack_set(config, (size_t)max_wasm_stack);
    if (pooling_slots > 0) {
        wasmtime_pooling_allocation_config_t *pooling = wasmtime_pooling_allocation_config_new();
        if (!pooling) {
            wasm_config_delete(config);
            free(engine);
            svc_throw_out_of_memory(env, "no native memory for a pooling allocator config");
            return 0;
        }
        wasmtime_pooling_allocation_config_total_core_instances_set(pooling, (uint32_t)pooling_slots);
        wasmtime_pooling_allocation_config_total_memories_set(pooling, (uint32_t)pooling_slots);
        wasmtime_pooling_allocation_config_total_tables_set(pooling, (uint32_t)pooling_slots);
        if (pooling_max_memory > 0) {
            wasmtime_pooling_allocation_config_max_memory_size_set(pooling, (size_t)pooling_max_memory);
        }
        wasmtime_pooling_allocation_strategy_set(config, pooling);
        wasmtime_pooling_allocation_config_delete(pooling);
    }
    engine->engine = wasm_engine_new_with_config(config); /* consumes config */
    if (!engine->engine) {
        free(engine);
        svc_throw_wasm_error_text(env, "wasmtime refused the engine configuration");
        return 0;
    }
    engine->serial = atomic_fetch_add(&next_serial, 1);
    engine->epoch = epoch == JNI_TRUE;
    engine->fuel = fuel == JNI_TRUE;
    engine->pooling_max_memory = pooling_slots > 0 ? (uint64_t)pooling_max_memory : 0;
    engine->max_wasm_stack = max_wasm_stack > 0 ? (size_t)max_wasm_stack : SVC_WASMTIME_DEFAULT_WASM_STACK;
    int64_t handle;
    svc_handle_status status = svc_handle_new(SVC_HANDLE_ENGINE, engine, &handle);
    if (status != SVC_HANDLE_OK) {
        wasm_engine_delete(engine->engine);
        free(engine);
        svc_throw_handle(env, status, "engine");
        return 0;
    }
    return handle;
}

void svc_engine_increment_epoch(JNIEnv *env, jclass cls, jlong handle) {
    (void)cls;
    svc_handle_slot *slot;
    svc_engine *engine = svc_engine_acquire(env, handle, &slot);
    if (!engine) return;
    wasmtime_engine_increment_epoch(engine->engine);
    svc_handle_release_shared(slot);
}

void svc_engine_free(JNIEnv *env, jclass cls, jlong handle) {
    (void)cls;
    void *obj = NULL;
    svc_handle_status status = svc_handle_free(handle, SVC_HANDLE_ENGINE, &obj);
    if (status != SVC_HANDLE_OK) {
        svc_throw_handle(env, status, "engine");
        return;
    }
    svc_engine *engine = obj;
    /* Modules, pres and stores hold their own references to the wasmtime engine. */
    wasm_engine_delete(engine->engine);
    free(engine);
}
