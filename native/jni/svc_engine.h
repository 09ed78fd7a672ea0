/*
 * Engines: one wasmtime engine with the options a Module was configured with (epoch
 * interruption, fuel metering, wasm exceptions, wasm stack size, optional pooling allocator).
 * Shared by all threads; engineIncrementEpoch is called by a ticker thread while calls run.
 */
#ifndef SVC_ENGINE_H
#define SVC_ENGINE_H

#include <jni.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svc_handle.h"
#include "svc_runtime.h"
#include "wasmtime_decls.h"

typedef struct svc_engine {
    wasm_engine_t *engine; /* owned */
    uint64_t serial;       /* identifies the engine for module/pre consistency checks */
    svc_engine_options options; /* as given; svc_runtime_pre_init derives the rest */
} svc_engine;

/* Acquires a shared engine handle or throws; release with svc_handle_release_shared(*slot). */
svc_engine *svc_engine_acquire(JNIEnv *env, jlong handle, svc_handle_slot **slot);

jlong svc_engine_new(JNIEnv *env, jclass cls, jboolean epoch, jboolean fuel, jboolean exceptions,
                     jlong max_wasm_stack, jint pooling_slots, jlong pooling_max_memory);
void svc_engine_increment_epoch(JNIEnv *env, jclass cls, jlong handle);
void svc_engine_free(JNIEnv *env, jclass cls, jlong handle);

#endif /* SVC_ENGINE_H */
