/*
 * Failure classification and the only place that throws Java exceptions.
 *
 * Internal functions describe what went wrong in an svc_failure (a kind, an exit code and
 * wasmtime's text); the JNI entry points turn it into GuestTrap, WasmError or a standard Java
 * exception. Kind numbers are the ordinals of dev.svc.engine.internal.GuestTrap.Kind.
 */
#ifndef SVC_ERRORS_H
#define SVC_ERRORS_H

#include <jni.h>
#include <stdbool.h>

#include "svc_handle.h"
#include "wasmtime_decls.h"

typedef enum svc_trap_kind {
    SVC_KIND_OTHER = 0,
    SVC_KIND_INTERRUPT = 1,
    SVC_KIND_OUT_OF_FUEL = 2,
    SVC_KIND_MEMORY = 3,
    SVC_KIND_EXIT = 4,
    SVC_KIND_STACK_OVERFLOW = 5,
    SVC_KIND_UNREACHABLE = 6,
    SVC_KIND_HOST_EXCEPTION = 7,
    SVC_KIND_BAD_RESPONSE = 8,
} svc_trap_kind;

typedef struct svc_failure {
    bool failed;
    svc_trap_kind kind;
    int exit_code;        /* meaningful for SVC_KIND_EXIT */
    char *message;        /* malloc'd UTF-8, owned by the failure; may be NULL */
    size_t message_len;
    bool java_pending;    /* a Java exception is already pending: throw nothing else */
} svc_failure;

#define SVC_FAILURE_INIT {false, SVC_KIND_OTHER, 0, NULL, 0, false}

/* Classifies and consumes trap and/or error (either may be NULL). */
void svc_failure_from_wasmtime(svc_failure *failure, wasm_trap_t *trap, wasmtime_error_t *error);
/* Records kind with a copy of message (replacing nothing if a failure is already recorded). */
void svc_failure_set(svc_failure *failure, svc_trap_kind kind, const char *message);
/* Moves src into dst (dst must be empty); src is left empty. */
void svc_failure_move(svc_failure *dst, svc_failure *src);
void svc_failure_clear(svc_failure *failure);

int svc_errors_load(JNIEnv *env);
void svc_errors_unload(JNIEnv *env);

void svc_throw_null_pointer(JNIEnv *env, const char *message);
void svc_throw_illegal_argument(JNIEnv *env, const char *message);
void svc_throw_illegal_state(JNIEnv *env, const char *message);
void svc_throw_index_out_of_bounds(JNIEnv *env, const char *message);
void svc_throw_out_of_memory(JNIEnv *env, const char *message);
/* WasmError with wasmtime's message (the Java layer adds what was being done); consumes error. */
void svc_throw_wasm_error(JNIEnv *env, wasmtime_error_t *error);
void svc_throw_wasm_error_text(JNIEnv *env, const char *message);
/* GuestTrap for failure, unless a Java exception is already pending. Clears failure. */
void svc_throw_failure(JNIEnv *env, svc_failure *failure);
/* The exception for a handle that could not be acquired; what names the handle's type. */
void svc_throw_handle(JNIEnv *env, svc_handle_status status, const char *what);

#endif /* SVC_ERRORS_H */
