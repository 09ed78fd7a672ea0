/* Engine creation and the epoch tick; see svc_engine.h. */
#include "svc_engine.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "svc_errors.h"
#include "svc_jni.h"

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
    svc_engine_options options = {epoch == JNI_TRUE, fuel == JNI_TRUE, exceptions == JNI_TRUE,
                                   max_wasm_stack, pooling_slots, pooling_max_memory};
    svc_engine *engine = calloc(1, sizeof *engine);
    if (!engine) {
        svc_throw_out_of_memory(env, "no native memory for a wasmtime engine");
        return 0;
    }
    svc_engine_refusal why;
    engine->engine = svc_runtime_engine_new(&options, &why, &problem);
    if (!engine->engine) {
        free(engine);
        if (why == SVC_ENGINE_BAD_OPTION) {
            svc_throw_illegal_argument(env, problem);
        } else if (why == SVC_ENGINE_NO_MEMORY) {
            svc_throw_out_of_memory(env, problem);
        } else {
            svc_throw_wasm_error_text(env, problem);
        }
        return 0;
    }
    engine->serial = atomic_fetch_add(&next_serial, 1);
    engine->options = options;
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
