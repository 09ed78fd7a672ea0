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

static void run_guest(void *data, svc_guest_call *call);

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
    svc_runtime_prepare(&instance->guest, deadline_ticks, fuel);
    instance->env = env;
    instance->guest.run = run_guest;
    instance->guest.run_data = entry;
    return true;
}

static void leave(svc_entry *entry) {
    entry->instance->env = NULL;
    entry->instance->guest.run = NULL;
    svc_handle_release_exclusive(entry->slot);
}

/* Latches the instance as stopped, releases it and throws the recorded failure. */
static void stop(svc_entry *entry) {
    svc_handle_mark_stopped(entry->slot);
    leave(entry);
    svc_throw_failure(entry->env, &entry->failure);
}

/* The svc_stack_task that enters the guest; host calls inside it use this thread's JNIEnv. */
static void run_guest_call(JNIEnv *env, void *data) {
    svc_guest_call *call = data;
    ((svc_instance *)call->guest)->env = env;
    svc_runtime_call_now(call);
}

/* The guest's runner: inline, or on the helper when the caller's stack is short. A Java
 * exception a host call threw on the helper thread is pending on the caller's env afterwards. */
static void run_guest(void *data, svc_guest_call *call) {
    svc_entry *entry = data;
    svc_instance *instance = entry->instance;
    if (entry->on_helper) {
        svc_stack_helper_run(instance->stack_helper, entry->env, run_guest_call, call);
        instance->env = entry->env;
    } else {
        svc_runtime_call_now(call);
    }
}

/* Runs one export; false when it trapped, with the classified failure in entry->failure. */
static bool invoke(svc_entry *entry, const wasmtime_func_t *func, wasmtime_val_raw_t *args, size_t count) {
    return svc_runtime_invoke(&entry->instance->guest, func, args, count, &entry->failure);
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
    if (entry.instance->guest.has_init) {
        wasmtime_val_raw_t args[1];
        if (!invoke(&entry, &entry.instance->guest.fn_init, args, 0)) {
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
    if (!require(&entry, entry.instance->guest.has_abi, "engine_abi_version")) return 0;
    wasmtime_val_raw_t args[1];
    if (!invoke(&entry, &entry.instance->guest.fn_abi, args, 1)) {
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
    if (!require(&entry, entry.instance->guest.has_alloc, "engine_alloc")) return 0;
    wasmtime_val_raw_t args[1];
    args[0].i32 = size;
    if (!invoke(&entry, &entry.instance->guest.fn_alloc, args, 1)) {
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
    if (!require(&entry, entry.instance->guest.has_free, "engine_free")) return;
    wasmtime_val_raw_t args[2];
    args[0].i32 = ptr;
    args[1].i32 = len;
    if (!invoke(&entry, &entry.instance->guest.fn_free, args, 2)) {
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
    if (!require(&entry, entry.instance->guest.has_call, "engine_call")) return 0;
    wasmtime_val_raw_t args[2];
    args[0].i32 = ptr;
    args[1].i32 = len;
    if (!invoke(&entry, &entry.instance->guest.fn_call, args, 2)) {
        stop(&entry);
        return 0;
    }
    leave(&entry);
    return args[0].i64;
}

/* A round trip's bytes in Java arrays. */
typedef struct java_io {
    JNIEnv *env;
    jbyteArray request;
    jbyteArray response; /* NULL until read (or when no array could be made) */
} java_io;

static void write_java_request(void *data, uint8_t *dst) {
    java_io *io = data;
    JNIEnv *env = io->env;
    (*env)->GetByteArrayRegion(env, io->request, 0, (*env)->GetArrayLength(env, io->request), (jbyte *)dst);
}

static bool read_java_response(void *data, const uint8_t *src, size_t len) {
    java_io *io = data;
    JNIEnv *env = io->env;
    io->response = (*env)->NewByteArray(env, (jsize)len);
    if (!io->response) return false; /* OutOfMemoryError pending */
    (*env)->SetByteArrayRegion(env, io->response, 0, (jsize)len, (const jbyte *)src);
    return true;
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
    svc_guest *guest = &entry.instance->guest;
    if (!require(&entry, guest->has_memory, "memory") || !require(&entry, guest->has_alloc, "engine_alloc") ||
        !require(&entry, guest->has_free, "engine_free") || !require(&entry, guest->has_call, "engine_call")) {
        return NULL;
    }
    java_io data = {env, request, NULL};
    svc_round_trip_io io = {(size_t)(*env)->GetArrayLength(env, request), write_java_request, read_java_response,
                            &data};
    svc_trip_status status = svc_runtime_round_trip(guest, &io, &entry.failure);
    if (status == SVC_TRIP_STOPPED) {
        if (data.response) (*env)->DeleteLocalRef(env, data.response);
        stop(&entry);
        return NULL;
    }
    leave(&entry);
    return data.response; /* NULL for SVC_TRIP_NO_MEMORY: the module works on */
}

/* Resolves [ptr, ptr + len) inside the instance's memory or throws IndexOutOfBoundsException. */
static uint8_t *memory_range(JNIEnv *env, svc_instance *instance, jint ptr, jint len) {
    if (!instance->guest.has_memory) {
        svc_throw_wasm_error_text(env, "the module doesn't export `memory`");
        return NULL;
    }
    uint64_t start = (uint32_t)ptr; /* wasm32 addresses are unsigned */
    size_t size = svc_runtime_memory_size(&instance->guest);
    if (len < 0 || start + (uint64_t)len > size) {
        char message[160];
        snprintf(message, sizeof message, "%" PRId32 " bytes at address %" PRIu64
                 " don't fit in the module's memory of %zu bytes", (int32_t)len, start, size);
        svc_throw_index_out_of_bounds(env, message);
        return NULL;
    }
    return wasmtime_memory_data(instance->guest.context, &instance->guest.memory) + start;
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
