/*
 * engine.host_call(ptr, len) -> i64: the module asks the host for something.
 *
 * Runs on the thread that called into the guest, with that call's JNIEnv from the store
 * data. Reads the request (bounds-checked), calls HostCallHandler.hostCall(byte[]), allocates
 * the reply inside the guest with engine_alloc (re-entrantly, in the caller's store context),
 * re-reads the memory base (the allocation may have grown memory), writes the reply and
 * returns (ptr << 32) | len. Any failure is recorded in the instance's host_failure and turned
 * into a trap; a Java exception from the handler stays pending and reaches the caller.
 */
#ifndef SVC_HOSTCALL_H
#define SVC_HOSTCALL_H

#include <jni.h>
#include <stddef.h>

#include "wasmtime_decls.h"

int svc_hostcall_load(JNIEnv *env);
void svc_hostcall_unload(JNIEnv *env);

wasm_trap_t *svc_hostcall_callback(void *data, wasmtime_caller_t *caller, wasmtime_val_raw_t *args_and_results,
                                   size_t count);

#endif /* SVC_HOSTCALL_H */
