/*
 * Modules: compile, serialize, deserialize (bytes or a memory-mapped file), and list imports
 * and exports. A module remembers which engine made it so an instance-pre for another engine
 * is refused instead of tripping a wasmtime assertion. Shared by all threads.
 */
#ifndef SVC_MODULE_H
#define SVC_MODULE_H

#include <jni.h>
#include <stdint.h>

#include "svc_handle.h"
#include "wasmtime_decls.h"

typedef struct svc_module {
    wasmtime_module_t *module; /* owned */
    uint64_t engine_serial;
} svc_module;

int svc_module_load(JNIEnv *env);
void svc_module_unload(JNIEnv *env);

/* Acquires a shared module handle or throws; release with svc_handle_release_shared(*slot). */
svc_module *svc_module_acquire(JNIEnv *env, jlong handle, svc_handle_slot **slot);

jlong svc_module_compile(JNIEnv *env, jclass cls, jlong engine, jbyteArray wasm);
jbyteArray svc_module_serialize(JNIEnv *env, jclass cls, jlong module);
jlong svc_module_deserialize(JNIEnv *env, jclass cls, jlong engine, jbyteArray artifact);
jlong svc_module_deserialize_file(JNIEnv *env, jclass cls, jlong engine, jstring path);
jobjectArray svc_module_imports(JNIEnv *env, jclass cls, jlong module);
jobjectArray svc_module_exports(JNIEnv *env, jclass cls, jlong module);
void svc_module_free(JNIEnv *env, jclass cls, jlong module);

/* "func", "global", "table", "memory", "tag" or "unknown". */
const char *svc_module_kind_name(wasm_externkind_t kind);

#endif /* SVC_MODULE_H */
