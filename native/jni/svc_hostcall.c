/* engine.host_call; see svc_hostcall.h. */
#include "svc_hostcall.h"

#include <stdint.h>
#include <string.h>

#include "svc_errors.h"
#include "svc_instance.h"

static jclass handler_class;
static jmethodID host_call_method;

int svc_hostcall_load(JNIEnv *env) {
    jclass local = (*env)->FindClass(env, "dev/svc/engine/internal/HostCallHandler");
    if (!local) return -1;
    handler_class = (*env)->NewGlobalRef(env, local);
    (*env)->DeleteLocalRef(env, local);
    if (!handler_class) return -1;
    host_call_method = (*env)->GetMethodID(env, handler_class, "hostCall", "([B)[B");
    if (!host_call_method) {
        svc_hostcall_unload(env);
        return -1;
    }
    return 0;
}

void svc_hostcall_unload(JNIEnv *env) {
    if (handler_class) (*env)->DeleteGlobalRef(env, handler_class);
    handler_class = NULL;
    host_call_method = NULL;
}

/* Records a failure (first cause wins) and hands wasmtime a trap that unwinds the guest. */
static wasm_trap_t *fail(svc_instance *instance, svc_trap_kind kind, const char *message) {
    svc_failure_set(&instance->host_failure, kind, message);
    const svc_failure *failure = &instance->host_failure;
    const char *text = failure->message ? failure->message : message;
    return wasmtime_trap_new(text, strlen(text));
}

wasm_trap_t *svc_hostcall_callback(void *data, wasmtime_caller_t *caller, wasmtime_val_raw_t *args_and_results,
                                   size_t count) {
    (void)data;
    (void)count; /* the linker declared (i32, i32) -> i64: two slots */
    wasmtime_context_t *context = wasmtime_caller_context(caller);
    svc_instance *instance = wasmtime_context_get_data(context);
    JNIEnv *env = instance->env;
    uint32_t request_ptr = (uint32_t)args_and_results[0].i32;
    uint32_t request_len = (uint32_t)args_and_results[1].i32;
    if (!env || !instance->handler) {
        return fail(instance, SVC_KIND_HOST_EXCEPTION,
                    "the module called engine.host_call, but the instance has no host call handler");
    }
    if (!instance->has_memory || !instance->has_alloc) {
        return fail(instance, SVC_KIND_OTHER,
                    "the module called engine.host_call without exporting memory and engine_alloc");
    }
    size_t size = wasmtime_memory_data_size(context, &instance->memory);
    if ((uint64_t)request_ptr + request_len > size) {
        return fail(instance, SVC_KIND_OTHER, "the module sent a host call outside its memory");
    }
    if (request_len > (uint32_t)INT32_MAX - 8) {
        return fail(instance, SVC_KIND_OTHER, "the module sent a host call larger than a Java array can hold");
    }
    jbyteArray request = (*env)->NewByteArray(env, (jsize)request_len);
    if (!request) {
        instance->host_failure.java_pending = true;
        return fail(instance, SVC_KIND_HOST_EXCEPTION, "no Java heap for a host call's request");
    }
    (*env)->SetByteArrayRegion(env, request, 0, (jsize)request_len,
                               (const jbyte *)(wasmtime_memory_data(context, &instance->memory) + request_ptr));
    jbyteArray reply = (*env)->CallObjectMethod(env, instance->handler, host_call_method, request);
    (*env)->DeleteLocalRef(env, request);
    /* INVARIANT: no JNI call but DeleteLocalRef while the handler's exception is pending. */
    if ((*env)->ExceptionCheck(env)) {
        if (reply) (*env)->DeleteLocalRef(env, reply);
        instance->host_failure.java_pending = true;
        return fail(instance, SVC_KIND_HOST_EXCEPTION, "the host call handler threw an exception");
    }
    if (!reply) return fail(instance, SVC_KIND_HOST_EXCEPTION, "the host call handler returned null");
    jsize reply_len = (*env)->GetArrayLength(env, reply);
    wasmtime_val_raw_t alloc_args[1];
    alloc_args[0].i32 = reply_len;
    wasm_trap_t *trap = NULL;
    /* Re-entrant: the guest is suspended inside engine_call, in this same store. */
    wasmtime_error_t *error = wasmtime_func_call_unchecked(context, &instance->fn_alloc, alloc_args, 1, &trap);
    if (error || trap) {
        (*env)->DeleteLocalRef(env, reply);
        svc_failure_from_wasmtime(&instance->host_failure, trap, error);
        const svc_failure *failure = &instance->host_failure;
        const char *text = failure->message ? failure->message : "engine_alloc failed inside a host call";
        return wasmtime_trap_new(text, strlen(text));
    }
    uint32_t reply_ptr = (uint32_t)alloc_args[0].i32;
    if (reply_ptr == 0 && reply_len > 0) {
        (*env)->DeleteLocalRef(env, reply);
        return fail(instance, SVC_KIND_MEMORY, "the module couldn't allocate memory for a host function's response");
    }
    /* The allocation may have grown (and moved) memory: read size and base again. */
    size = wasmtime_memory_data_size(context, &instance->memory);
    if ((uint64_t)reply_ptr + (uint64_t)reply_len > size) {
        (*env)->DeleteLocalRef(env, reply);
        return fail(instance, SVC_KIND_BAD_RESPONSE, "engine_alloc returned memory outside the module's memory");
    }
    (*env)->GetByteArrayRegion(env, reply, 0, reply_len,
                               (jbyte *)(wasmtime_memory_data(context, &instance->memory) + reply_ptr));
    (*env)->DeleteLocalRef(env, reply);
    args_and_results[0].i64 = (int64_t)(((uint64_t)reply_ptr << 32) | (uint64_t)(uint32_t)reply_len);
    return NULL;
}
