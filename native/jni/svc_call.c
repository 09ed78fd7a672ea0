/* Guest entries and memory access; see svc_call.h. */
#include "svc_call.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "svc_errors.h"
#include "svc_instance.h"
#include "svc_stack.h"

/* An instance held exclusively for one guest-entering operation. */
typedef struct svc_entry {
    JNIEnv *env;
    svc_instance *instance;
    svc_handle_slot *slot;
    svc_failure failure;
    bool on_helper; /* the calling thread's stack is too short: guest code runs on the helper */
} svc_entry;

/* One export call, run on whichever thread has the stack for it. */
typedef struct guest_call {
    svc_instance *instance;
    const wasmtime_func_t *func;
    wasmtime_val_raw_t *args;
    size_t count;
    wasmtime_error_t *error;
    wasm_trap_t *trap;
} guest_call;

/* Decides where this entry's guest code runs, starting the instance's stack helper the first
 * time a caller's stack is too short. False with an exception when no helper could start. */
static bool choose_stack(svc_entry *entry) {
    svc_instance *instance = entry->instance;
    entry->on_helper = svc_stack_is_short(instance->stack_needed);
    if (!entry->on_helper || instance->stack_helper) return true;
    const char *problem = NULL;
    instance->stack_helper = svc_stack_helper_start(entry->env, &problem);
    if (instance->stack_helper) return true;
    svc_throw_out_of_memory(entry->env, problem);
    return false;
}

/* Acquires the instance, refuses a stopped one, sets deadline and fuel. False with an exception. */
static bool enter(JNIEnv *env, jlong handle, jlong deadline_ticks, jlong fuel, svc_entry *entry) {
    entry->env = env;
    entry->failure = (svc_failure)SVC_FAILURE_INIT;
    entry->instance = svc_instance_acquire(env, handle, &entry->slot);
    if (!entry->instance) return false;
    if (svc_handle_is_stopped(entry->slot)) {
        svc_handle_release_exclusive(entry->slot);
        svc_throw_illegal_state(env, "the instance stopped earlier");
        return false;
    }
    if (!choose_stack(entry)) {
        svc_handle_release_exclusive(entry->slot);
        return false;
    }
    svc_instance *instance = entry->instance;
    /* The deadline is relative to the current epoch, so it is set on every entry. */
    wasmtime_context_set_epoch_deadline(instance->context,
                                        deadline_ticks > 0 ? (uint64_t)deadline_ticks : SVC_EPOCH_FOREVER);
    if (instance->fuel) {
        wasmtime_error_t *error = wasmtime_context_set_fuel(instance->context, fuel < 0 ? UINT64_MAX : (uint64_t)fuel);
        if (error) wasmtime_error_delete(error);
    }
    svc_failure_clear(&instance->host_failure);
    instance->env = env;
    return true;
}

static void leave(svc_entry *entry) {
    entry->instance->env = NULL;
    svc_handle_release_exclusive(entry->slot);
}

/* Latches the instance as stopped, releases it and throws the recorded failure. */
static void stop(svc_entry *entry) {
    svc_handle_mark_stopped(entry->slot);
    leave(entry);
    svc_throw_failure(entry->env, &entry->failure);
}

/* Records a failure that the bridge itself detected (not a wasmtime trap) and stops. */
static void stop_with(svc_entry *entry, svc_trap_kind kind, const char *message) {
    svc_failure_set(&entry->failure, kind, message);
    stop(entry);
}

/* The svc_stack_task that enters the guest; host calls inside it use this thread's JNIEnv. */
static void run_guest_call(JNIEnv *env, void *data) {
    guest_call *call = data;
    call->instance->env = env;
    call->error = wasmtime_func_call_unchecked(call->instance->context, call->func, call->args, call->count,
                                               &call->trap);
}

/* Runs one export; false when it trapped, with the classified failure in entry->failure. A Java
 * exception a host call threw on the helper thread is pending on the caller's env afterwards. */
static bool invoke(svc_entry *entry, const wasmtime_func_t *func, wasmtime_val_raw_t *args, size_t count) {
    svc_instance *instance = entry->instance;
    guest_call call = {instance, func, args, count, NULL, NULL};
    if (entry->on_helper) {
        svc_stack_helper_run(instance->stack_helper, entry->env, run_guest_call, &call);
        instance->env = entry->env;
    } else {
        run_guest_call(entry->env, &call);
    }
    wasm_trap_t *trap = call.trap;
    wasmtime_error_t *error = call.error;
    if (!error && !trap) return true;
    /* A failure the host-call path recorded explains the unwind better than its trap text. */
    if (instance->host_failure.failed) svc_failure_move(&entry->failure, &instance->host_failure);
    svc_failure_from_wasmtime(&entry->failure, trap, error);
    svc_trap_kind kind = entry->failure.kind;
    if ((kind == SVC_KIND_OTHER || kind == SVC_KIND_UNREACHABLE) && svc_instance_memory_at_limit(instance)) {
        /* Memory cannot grow any more: the guest's allocator gave up, whatever it trapped with. */
        entry->failure.kind = SVC_KIND_MEMORY;
    }
    return false;
}

/* Fails with WasmError when the module lacks an export the operation needs. */
static bool require(svc_entry *entry, bool present, const char *name) {
    if (present) return true;
    leave(entry);
    char message[120];
    snprintf(message, sizeof message, "the module doesn't export `%s`", name);
    svc_throw_wasm_error_text(entry->env, message);
    return false;
}

void svc_call_initialize(JNIEnv *env, jclass cls, jlong handle, jlong deadline_ticks, jlong fuel) {
    (void)cls;
    svc_entry entry;
    if (!enter(env, handle, deadline_ticks, fuel, &entry)) return;
    if (entry.instance->has_init) {
        wasmtime_val_raw_t args[1];
        if (!invoke(&entry, &entry.instance->fn_init, args, 0)) {
            stop(&entry);
            return;
        }
    }
    leave(&entry);
}

jint svc_call_abi_version(JNIEnv *env, jclass cls, jlong handle, jlong deadline_ticks, jlong fuel) {
    (void)cls;
    svc_entry entry;
    if (!enter(env, handle, deadline_ticks, fuel, &entry)) return 0;
    if (!require(&entry, entry.instance->has_abi, "engine_abi_version")) return 0;
    wasmtime_val_raw_t args[1];
    if (!invoke(&entry, &entry.instance->fn_abi, args, 1)) {
        stop(&entry);
        return 0;
    }
    leave(&entry);
    return args[0].i32;
}

jint svc_call_alloc(JNIEnv *env, jclass cls, jlong handle, jint size, jlong deadline_ticks, jlong fuel) {
    (void)cls;
    svc_entry entry;
    if (!enter(env, handle, deadline_ticks, fuel, &entry)) return 0;
    if (!require(&entry, entry.instance->has_alloc, "engine_alloc")) return 0;
    wasmtime_val_raw_t args[1];
    args[0].i32 = size;
    if (!invoke(&entry, &entry.instance->fn_alloc, args, 1)) {
        stop(&entry);
        return 0;
    }
    leave(&entry);
    return args[0].i32;
}

void svc_call_free(JNIEnv *env, jclass cls, jlong handle, jint ptr, jint len, jlong deadline_ticks, jlong fuel) {
    (void)cls;
    svc_entry entry;
    if (!enter(env, handle, deadline_ticks, fuel, &entry)) return;
    if (!require(&entry, entry.instance->has_free, "engine_free")) return;
    wasmtime_val_raw_t args[2];
    args[0].i32 = ptr;
    args[1].i32 = len;
    if (!invoke(&entry, &entry.instance->fn_free, args, 2)) {
        stop(&entry);
        return;
    }
    leave(&entry);
}

jlong svc_call_call_raw(JNIEnv *env, jclass cls, jlong handle, jint ptr, jint len, jlong deadline_ticks,
                        jlong fuel) {
    (void)cls;
    svc_entry entry;
    if (!enter(env, handle, deadline_ticks, fuel, &entry)) return 0;
    if (!require(&entry, entry.instance->has_call, "engine_call")) return 0;
    wasmtime_val_raw_t args[2];
    args[0].i32 = ptr;
    args[1].i32 = len;
    if (!invoke(&entry, &entry.instance->fn_call, args, 2)) {
        stop(&entry);
        return 0;
    }
    leave(&entry);
    return args[0].i64;
}

jbyteArray svc_call_call(JNIEnv *env, jclass cls, jlong handle, jbyteArray request, jlong deadline_ticks,
                         jlong fuel) {
    (void)cls;
    if (!request) {
        svc_throw_null_pointer(env, "request");
        return NULL;
    }
    svc_entry entry;
    if (!enter(env, handle, deadline_ticks, fuel, &entry)) return NULL;
    svc_instance *instance = entry.instance;
    if (!require(&entry, instance->has_memory, "memory") || !require(&entry, instance->has_alloc, "engine_alloc") ||
        !require(&entry, instance->has_free, "engine_free") || !require(&entry, instance->has_call, "engine_call")) {
        return NULL;
    }
    jsize request_len = (*env)->GetArrayLength(env, request);
    wasmtime_val_raw_t args[2];

    args[0].i32 = request_len;
    if (!invoke(&entry, &instance->fn_alloc, args, 1)) goto trapped;
    uint32_t request_ptr = (uint32_t)args[0].i32;
    if (request_ptr == 0 && request_len > 0) {
        /* The module is out of memory for this request; it still works (not a stop). */
        leave(&entry);
        return NULL;
    }
    size_t size = wasmtime_memory_data_size(instance->context, &instance->memory);
    if ((uint64_t)request_ptr + (uint64_t)request_len > size) {
        stop_with(&entry, SVC_KIND_BAD_RESPONSE, "engine_alloc returned memory outside the module's memory");
        return NULL;
    }
    (*env)->GetByteArrayRegion(env, request, 0, request_len,
                               (jbyte *)(wasmtime_memory_data(instance->context, &instance->memory) + request_ptr));

    args[0].i32 = (int32_t)request_ptr;
    args[1].i32 = request_len;
    if (!invoke(&entry, &instance->fn_call, args, 2)) goto trapped;
    uint64_t packed = (uint64_t)args[0].i64;
    uint32_t response_ptr = (uint32_t)(packed >> 32);
    uint32_t response_len = (uint32_t)packed;

    /* Checked before allocating a Java array, so a bogus length cannot ask for 4 GiB. */
    size = wasmtime_memory_data_size(instance->context, &instance->memory);
    if ((uint64_t)response_ptr + (uint64_t)response_len > size) {
        stop_with(&entry, SVC_KIND_BAD_RESPONSE, "the module returned a response outside its memory");
        return NULL;
    }
    if (response_len > (uint32_t)INT32_MAX - 8) {
        stop_with(&entry, SVC_KIND_BAD_RESPONSE, "the module returned a response larger than a Java array can hold");
        return NULL;
    }
    jbyteArray response = (*env)->NewByteArray(env, (jsize)response_len);
    if (response) {
        (*env)->SetByteArrayRegion(
            env, response, 0, (jsize)response_len,
            (const jbyte *)(wasmtime_memory_data(instance->context, &instance->memory) + response_ptr));
    }
    /* Free both buffers even when the Java array could not be made (OutOfMemoryError pending). */
    args[0].i32 = (int32_t)response_ptr;
    args[1].i32 = (int32_t)response_len;
    if (!invoke(&entry, &instance->fn_free, args, 2)) goto trapped;
    args[0].i32 = (int32_t)request_ptr;
    args[1].i32 = request_len;
    if (!invoke(&entry, &instance->fn_free, args, 2)) goto trapped;
    leave(&entry);
    return response;

trapped:
    stop(&entry);
    return NULL;
}

/* Resolves [ptr, ptr + len) inside the instance's memory or throws IndexOutOfBoundsException. */
static uint8_t *memory_range(JNIEnv *env, svc_instance *instance, jint ptr, jint len) {
    if (!instance->has_memory) {
        svc_throw_wasm_error_text(env, "the module doesn't export `memory`");
        return NULL;
    }
    uint64_t start = (uint32_t)ptr; /* wasm32 addresses are unsigned */
    size_t size = wasmtime_memory_data_size(instance->context, &instance->memory);
    if (len < 0 || start + (uint64_t)len > size) {
        char message[160];
        snprintf(message, sizeof message, "%" PRId32 " bytes at address %" PRIu64
                 " don't fit in the module's memory of %zu bytes", (int32_t)len, start, size);
        svc_throw_index_out_of_bounds(env, message);
        return NULL;
    }
    return wasmtime_memory_data(instance->context, &instance->memory) + start;
}

void svc_call_memory_write(JNIEnv *env, jclass cls, jlong handle, jint ptr, jbyteArray bytes) {
    (void)cls;
    if (!bytes) {
        svc_throw_null_pointer(env, "bytes");
        return;
    }
    svc_handle_slot *slot;
    svc_instance *instance = svc_instance_acquire(env, handle, &slot);
    if (!instance) return;
    jsize len = (*env)->GetArrayLength(env, bytes);
    uint8_t *target = memory_range(env, instance, ptr, len);
    if (target) (*env)->GetByteArrayRegion(env, bytes, 0, len, (jbyte *)target);
    svc_handle_release_exclusive(slot);
}

jbyteArray svc_call_memory_read(JNIEnv *env, jclass cls, jlong handle, jint ptr, jint len) {
    (void)cls;
    svc_handle_slot *slot;
    svc_instance *instance = svc_instance_acquire(env, handle, &slot);
    if (!instance) return NULL;
    jbyteArray result = NULL;
    const uint8_t *source = memory_range(env, instance, ptr, len);
    if (source) {
        result = (*env)->NewByteArray(env, len);
        /* NewByteArray cannot touch guest memory, so source is still valid. */
        if (result) (*env)->SetByteArrayRegion(env, result, 0, len, (const jbyte *)source);
    }
    svc_handle_release_exclusive(slot);
    return result;
}
