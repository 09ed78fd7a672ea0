/*
 * The only place that throws Java exceptions.
 *
 * Internal functions describe what went wrong in an svc_failure (svc_failure.h: a kind, an exit
 * code and wasmtime's text); the JNI entry points turn it into GuestTrap, WasmError or a standard
 * Java exception.
 */
#ifndef SVC_ERRORS_H
#define SVC_ERRORS_H

#include <jni.h>
#include <stdbool.h>

#include "svc_failure.h"
#include "svc_handle.h"
#include "wasmtime_decls.h"

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
