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

#include "svc_errors.h"
#include "svc_handle.h"
#include "svc_runtime.h"
#include "svc_stack.h"
#include "wasmtime_decls.h"

/* A guest (svc_runtime.h) used from Java: the core first, so the store's data pointer is both. */
typedef struct svc_instance {
    svc_guest guest;
    size_t stack_needed;            /* native stack a guest entry needs on the calling thread */
    svc_stack_helper *stack_helper; /* owned; started by the first entry from a short stack */
    jobject handler;                /* global ref to the HostCallHandler, or NULL */
    /* Per call: the JNIEnv of the thread running the guest (the caller's, or the stack helper's;
     * host calls run on it). */
    JNIEnv *env;
} svc_instance;

/* Acquires an instance exclusively or throws; release with svc_handle_release_exclusive. */
svc_instance *svc_instance_acquire(JNIEnv *env, jlong handle, svc_handle_slot **slot);

jlong svc_instance_pre_new(JNIEnv *env, jclass cls, jlong engine, jlong module);
void svc_instance_pre_free(JNIEnv *env, jclass cls, jlong pre);
jlong svc_instance_new(JNIEnv *env, jclass cls, jlong pre, jlong max_memory_bytes, jobject handler);
void svc_instance_free(JNIEnv *env, jclass cls, jlong instance);
jbyteArray svc_instance_stderr(JNIEnv *env, jclass cls, jlong instance);
jbyteArray svc_instance_stdout(JNIEnv *env, jclass cls, jlong instance);
jlong svc_instance_memory_size(JNIEnv *env, jclass cls, jlong instance);
jboolean svc_instance_is_stopped(JNIEnv *env, jclass cls, jlong instance);

#endif /* SVC_INSTANCE_H */
