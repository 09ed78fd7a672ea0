/*
 * Instance-pres and instances.
 *
 * An instance-pre is a module linked against WASI preview 1 and engine.host_call, with the
 * types of the ABI exports checked once; it is shared by all threads and makes instances in
 * microseconds. An instance is one wasmtime store plus one instance of the module: its own
 * memory limit, WASI context (no args, env or preopens; empty stdin; stdout and stderr into
 * bounded buffers) and host-call handler. It is used by one thread at a time (exclusive handle).
 */
#ifndef SVC_INSTANCE_H
#define SVC_INSTANCE_H

#include <jni.h>
#include <stdbool.h>
#include <stdint.h>

#include "svc_buffer.h"
#include "svc_errors.h"
#include "svc_handle.h"
#include "svc_stack.h"
#include "wasmtime_decls.h"

/* Deadline for calls without one: far in the future, yet far from overflowing epoch + delta. */
#define SVC_EPOCH_FOREVER (UINT64_MAX / 4)

typedef struct svc_pre {
    wasmtime_instance_pre_t *pre; /* owned */
    wasm_engine_t *engine;        /* owned clone: stores are made from it */
    bool epoch;
    bool fuel;
    bool has_memory, has_alloc, has_free, has_call, has_abi, has_init;
    uint64_t pooling_max_memory;
    size_t stack_needed; /* native stack a guest entry needs on the calling thread */
} svc_pre;

typedef struct svc_instance {
    wasmtime_store_t *store; /* owned; its data pointer is this struct */
    wasmtime_context_t *context;
    wasmtime_instance_t instance;
    wasmtime_memory_t memory;
    wasmtime_func_t fn_alloc, fn_free, fn_call, fn_abi, fn_init;
    bool has_memory, has_alloc, has_free, has_call, has_abi, has_init;
    bool epoch;
    bool fuel;
    uint64_t memory_limit; /* bytes memory can reach: store limit, pool cap or 4 GiB */
    size_t stack_needed;   /* native stack a guest entry needs on the calling thread */
    svc_stack_helper *stack_helper; /* owned; started by the first entry from a short stack */
    jobject handler;       /* global ref to the HostCallHandler, or NULL */
    /* Per call: the JNIEnv of the thread running the guest (the caller's, or the stack helper's;
     * host calls run on it), and a failure the host-call path recorded before it made wasmtime
     * unwind (first cause wins). */
    JNIEnv *env;
    svc_failure host_failure;
    svc_buffer out;
    svc_buffer err;
} svc_instance;

/* Acquires an instance exclusively or throws; release with svc_handle_release_exclusive. */
svc_instance *svc_instance_acquire(JNIEnv *env, jlong handle, svc_handle_slot **slot);

/* True when memory cannot grow by another 64 KiB page: a trap now is an allocation failure. */
bool svc_instance_memory_at_limit(const svc_instance *instance);

jlong svc_instance_pre_new(JNIEnv *env, jclass cls, jlong engine, jlong module);
void svc_instance_pre_free(JNIEnv *env, jclass cls, jlong pre);
jlong svc_instance_new(JNIEnv *env, jclass cls, jlong pre, jlong max_memory_bytes, jobject handler);
void svc_instance_free(JNIEnv *env, jclass cls, jlong instance);
jbyteArray svc_instance_stderr(JNIEnv *env, jclass cls, jlong instance);
jbyteArray svc_instance_stdout(JNIEnv *env, jclass cls, jlong instance);
jlong svc_instance_memory_size(JNIEnv *env, jclass cls, jlong instance);
jboolean svc_instance_is_stopped(JNIEnv *env, jclass cls, jlong instance);

#endif /* SVC_INSTANCE_H */
