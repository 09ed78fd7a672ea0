/* Exception throwing; see svc_errors.h. */
#include "svc_errors.h"

#include <stdio.h>
#include <string.h>

#include "svc_text.h"

static jclass null_pointer_class;
static jclass illegal_argument_class;
static jclass illegal_state_class;
static jclass index_out_of_bounds_class;
static jclass out_of_memory_class;
static jclass guest_trap_class;
static jmethodID guest_trap_init;
static jclass wasm_error_class;
static jmethodID wasm_error_init;

static jclass global_class(JNIEnv *env, const char *name) {
    jclass local = (*env)->FindClass(env, name);
    if (!local) return NULL;
    jclass global = (*env)->NewGlobalRef(env, local);
    (*env)->DeleteLocalRef(env, local);
    return global;
}

int svc_errors_load(JNIEnv *env) {
    if (!(null_pointer_class = global_class(env, "java/lang/NullPointerException"))) goto fail;
    if (!(illegal_argument_class = global_class(env, "java/lang/IllegalArgumentException"))) goto fail;
    if (!(illegal_state_class = global_class(env, "java/lang/IllegalStateException"))) goto fail;
    if (!(index_out_of_bounds_class = global_class(env, "java/lang/IndexOutOfBoundsException"))) goto fail;
    if (!(out_of_memory_class = global_class(env, "java/lang/OutOfMemoryError"))) goto fail;
    if (!(guest_trap_class = global_class(env, "dev/svc/engine/internal/GuestTrap"))) goto fail;
    guest_trap_init = (*env)->GetMethodID(env, guest_trap_class, "<init>", "(IILjava/lang/String;)V");
    if (!guest_trap_init) goto fail;
    if (!(wasm_error_class = global_class(env, "dev/svc/engine/internal/WasmError"))) goto fail;
    wasm_error_init = (*env)->GetMethodID(env, wasm_error_class, "<init>", "(Ljava/lang/String;)V");
    if (!wasm_error_init) goto fail;
    return 0;
fail:
    svc_errors_unload(env);
    return -1;
}

void svc_errors_unload(JNIEnv *env) {
    jclass *classes[] = {&null_pointer_class, &illegal_argument_class, &illegal_state_class, &index_out_of_bounds_class,
                         &out_of_memory_class, &guest_trap_class, &wasm_error_class};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        if (*classes[i]) (*env)->DeleteGlobalRef(env, *classes[i]);
        *classes[i] = NULL;
    }
    guest_trap_init = NULL;
    wasm_error_init = NULL;
}

/* ---- throwing ----------------------------------------------------------------------------- */

void svc_throw_null_pointer(JNIEnv *env, const char *message) {
    (*env)->ThrowNew(env, null_pointer_class, message);
}

void svc_throw_illegal_argument(JNIEnv *env, const char *message) {
    (*env)->ThrowNew(env, illegal_argument_class, message);
}

void svc_throw_illegal_state(JNIEnv *env, const char *message) {
    (*env)->ThrowNew(env, illegal_state_class, message);
}

void svc_throw_index_out_of_bounds(JNIEnv *env, const char *message) {
    (*env)->ThrowNew(env, index_out_of_bounds_class, message);
}

void svc_throw_out_of_memory(JNIEnv *env, const char *message) {
    (*env)->ThrowNew(env, out_of_memory_class, message);
}

static void throw_wasm_error_bytes(JNIEnv *env, const uint8_t *text, size_t len) {
    jstring message = svc_text_new_string(env, text, len);
    if (!message) return;
    jthrowable error = (*env)->NewObject(env, wasm_error_class, wasm_error_init, message);
    if (error) (*env)->Throw(env, error);
}

void svc_throw_wasm_error_text(JNIEnv *env, const char *message) {
    throw_wasm_error_bytes(env, (const uint8_t *)message, strlen(message));
}

void svc_throw_wasm_error(JNIEnv *env, wasmtime_error_t *error) {
    wasm_byte_vec_t text = {0, NULL};
    wasmtime_error_message(error, &text);
    wasmtime_error_delete(error);
    size_t text_len = text.size;
    while (text_len > 0 && text.data[text_len - 1] == '\0') text_len--;
    throw_wasm_error_bytes(env, text.data ? text.data : (const uint8_t *)"", text_len);
    if (text.data) wasm_byte_vec_delete(&text);
}

void svc_throw_failure(JNIEnv *env, svc_failure *failure) {
    if (failure->java_pending || (*env)->ExceptionCheck(env)) {
        svc_failure_clear(failure);
        return;
    }
    const char *fallback = "the module stopped without a message";
    jstring message = failure->message
                          ? svc_text_new_string(env, (const uint8_t *)failure->message, failure->message_len)
                          : svc_text_new_string(env, (const uint8_t *)fallback, strlen(fallback));
    if (message) {
        jthrowable trap = (*env)->NewObject(env, guest_trap_class, guest_trap_init, (jint)failure->kind,
                                            (jint)failure->exit_code, message);
        if (trap) (*env)->Throw(env, trap);
    }
    svc_failure_clear(failure);
}

void svc_throw_handle(JNIEnv *env, svc_handle_status status, const char *what) {
    char message[160];
    switch (status) {
    case SVC_HANDLE_NULL:
        snprintf(message, sizeof message, "the %s handle is 0 (null)", what);
        svc_throw_illegal_argument(env, message);
        break;
    case SVC_HANDLE_BUSY:
        snprintf(message, sizeof message,
                 "the %s is busy: another call on it is running (a host call can't call back into "
                 "the instance that runs it)", what);
        svc_throw_illegal_state(env, message);
        break;
    case SVC_HANDLE_FULL:
        snprintf(message, sizeof message, "no room for another %s handle", what);
        svc_throw_out_of_memory(env, message);
        break;
    default:
        snprintf(message, sizeof message, "the %s handle was freed or is not a %s handle", what, what);
        svc_throw_illegal_state(env, message);
        break;
    }
}
