/* JNI_OnLoad/OnUnload, the natives table and the wasmtime self-test; see svc_jni.h. */
#define _GNU_SOURCE /* sched_getcpu */
#include "svc_jni.h"

#include <jni.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "svc_call.h"
#include "svc_engine.h"
#include "svc_errors.h"
#include "svc_hostcall.h"
#include "svc_instance.h"
#include "svc_module.h"
#include "svc_text.h"
#include "wasmtime_decls.h"

#define SVC_NATIVE_CLASS "dev/svc/engine/internal/Native"

static char load_problem[512];

const char *svc_jni_load_problem(void) { return load_problem[0] ? load_problem : NULL; }

static jint bridge_version(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return SVC_BRIDGE_VERSION;
}

/* The CPU the calling thread runs on (an engine host's channel yields to a host on the same one). */
static jint current_cpu(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return sched_getcpu();
}

static jstring load_problem_string(JNIEnv *env, jclass cls) {
    (void)cls;
    const char *problem = svc_jni_load_problem();
    return problem ? svc_text_new_string(env, (const uint8_t *)problem, strlen(problem)) : NULL;
}

/* ---- self-test ---------------------------------------------------------------------------- */

/* (module (memory (export "memory") 1) (func (export "f") (result i32) i32.const 42)) */
static const uint8_t self_test_wasm[] = {
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,                               /* header */
    0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f,                                     /* type () -> i32 */
    0x03, 0x02, 0x01, 0x00,                                                       /* func 0 : type 0 */
    0x05, 0x03, 0x01, 0x00, 0x01,                                                 /* memory min 1 */
    0x07, 0x0e, 0x02, 0x01, 'f', 0x00, 0x00,                                      /* export "f" */
    0x06, 'm', 'e', 'm', 'o', 'r', 'y', 0x02, 0x00,                               /* export "memory" */
    0x0a, 0x06, 0x01, 0x04, 0x00, 0x41, 0x2a, 0x0b,                               /* i32.const 42 */
};

static void self_test_failed(const char *what, wasmtime_error_t *error) {
    wasm_byte_vec_t text = {0, NULL};
    if (error) {
        wasmtime_error_message(error, &text);
        wasmtime_error_delete(error);
    }
    snprintf(load_problem, sizeof load_problem,
             "the wasmtime library beside the bridge is not a working wasmtime " SVC_WASMTIME_VERSION
             ": %s%s%.*s", what, text.data ? ": " : "", text.data ? (int)text.size : 0,
             text.data ? (const char *)text.data : "");
    if (text.data) wasm_byte_vec_delete(&text);
}

static bool canaries_intact(const uint8_t *bytes, size_t used, size_t total) {
    for (size_t i = used; i < total; i++) {
        if (bytes[i] != 0xA5) return false;
    }
    return true;
}

/* Compiles, serializes and runs a tiny module through the declarations in wasmtime_decls.h:
 * a library of another version or ABI fails here instead of corrupting memory later. */
static void self_test(void) {
    wasm_engine_t *engine = wasm_engine_new_with_config(wasm_config_new());
    wasmtime_module_t *module = NULL;
    wasmtime_linker_t *linker = NULL;
    wasmtime_instance_pre_t *pre = NULL;
    wasmtime_store_t *store = NULL;
    wasm_byte_vec_t artifact = {0, NULL};
    if (!engine) {
        self_test_failed("it could not create an engine", NULL);
        return;
    }
    wasmtime_error_t *error = wasmtime_module_new(engine, self_test_wasm, sizeof self_test_wasm, &module);
    if (error) {
        self_test_failed("it could not compile a test module", error);
        goto done;
    }
    error = wasmtime_module_serialize(module, &artifact);
    if (error) {
        self_test_failed("it could not serialize a test module", error);
        goto done;
    }
    /* Serialized modules carry the major version of the wasmtime that made them, as a
     * length-prefixed string in their .wasmtime.engine section. */
    uint8_t version[8];
    version[0] = (uint8_t)strlen(SVC_WASMTIME_MAJOR);
    memcpy(version + 1, SVC_WASMTIME_MAJOR, version[0]);
    size_t version_len = 1u + version[0];
    bool version_found = false;
    for (size_t i = 0; i + version_len <= artifact.size && !version_found; i++) {
        version_found = memcmp(artifact.data + i, version, version_len) == 0;
    }
    if (!version_found) {
        self_test_failed("its compiled code names another major version", NULL);
        goto done;
    }
    linker = wasmtime_linker_new(engine);
    error = wasmtime_linker_instantiate_pre(linker, module, &pre);
    if (error) {
        self_test_failed("it could not link a test module", error);
        goto done;
    }
    store = wasmtime_store_new(engine, NULL, NULL);
    wasmtime_context_t *context = wasmtime_store_context(store);
    /* Canaries after each by-value result: a library that writes more than we declared is caught
     * here, in a test buffer, instead of overwriting the bridge's structs later. */
    union {
        wasmtime_instance_t value;
        uint8_t bytes[sizeof(wasmtime_instance_t) + 32];
    } instance;
    union {
        wasmtime_extern_t value;
        uint8_t bytes[sizeof(wasmtime_extern_t) + 32];
    } memory, func;
    memset(&instance, 0xA5, sizeof instance);
    memset(&memory, 0xA5, sizeof memory);
    memset(&func, 0xA5, sizeof func);
    wasm_trap_t *trap = NULL;
    error = wasmtime_instance_pre_instantiate(pre, context, &instance.value, &trap);
    if (trap) wasm_trap_delete(trap);
    if (error || trap) {
        self_test_failed("it could not instantiate a test module", error);
        goto done;
    }
    if (!canaries_intact(instance.bytes, sizeof instance.value, sizeof instance.bytes)) {
        self_test_failed("it writes instances larger than the bridge declares", NULL);
        goto done;
    }
    bool exported = wasmtime_instance_export_get(context, &instance.value, "memory", 6, &memory.value) &&
                    wasmtime_instance_export_get(context, &instance.value, "f", 1, &func.value);
    if (!exported || !canaries_intact(memory.bytes, sizeof memory.value, sizeof memory.bytes) ||
        !canaries_intact(func.bytes, sizeof func.value, sizeof func.bytes)) {
        self_test_failed("it writes exports larger than the bridge declares", NULL);
        goto done;
    }
    if (memory.value.kind != SVC_WASMTIME_EXTERN_MEMORY ||
        wasmtime_memory_data_size(context, &memory.value.of.memory) != 65536) {
        self_test_failed("its memory export does not match the declared layout", NULL);
        goto done;
    }
    if (func.value.kind != SVC_WASMTIME_EXTERN_FUNC) {
        self_test_failed("its function export does not match the declared layout", NULL);
        goto done;
    }
    wasmtime_val_raw_t result[1];
    error = wasmtime_func_call_unchecked(context, &func.value.of.func, result, 1, &trap);
    if (trap) wasm_trap_delete(trap);
    if (error || trap || result[0].i32 != 42) {
        self_test_failed("calling a test function gave the wrong answer", error);
        goto done;
    }
done:
    if (store) wasmtime_store_delete(store);
    if (pre) wasmtime_instance_pre_delete(pre);
    if (linker) wasmtime_linker_delete(linker);
    if (artifact.data) wasm_byte_vec_delete(&artifact);
    if (module) wasmtime_module_delete(module);
    wasm_engine_delete(engine);
}

/* ---- registration ------------------------------------------------------------------------- */

#define NATIVE(name, signature, fn) {(char *)(name), (char *)(signature), (void *)(fn)}

static const JNINativeMethod natives[] = {
    NATIVE("bridgeVersion", "()I", bridge_version),
    NATIVE("loadProblem", "()Ljava/lang/String;", load_problem_string),
    NATIVE("engineNew", "(ZZZJIJ)J", svc_engine_new),
    NATIVE("engineIncrementEpoch", "(J)V", svc_engine_increment_epoch),
    NATIVE("engineFree", "(J)V", svc_engine_free),
    NATIVE("moduleCompile", "(J[B)J", svc_module_compile),
    NATIVE("moduleSerialize", "(J)[B", svc_module_serialize),
    NATIVE("moduleDeserialize", "(J[B)J", svc_module_deserialize),
    NATIVE("moduleDeserializeFile", "(JLjava/lang/String;)J", svc_module_deserialize_file),
    NATIVE("moduleImports", "(J)[Ljava/lang/String;", svc_module_imports),
    NATIVE("moduleExports", "(J)[Ljava/lang/String;", svc_module_exports),
    NATIVE("moduleFree", "(J)V", svc_module_free),
    NATIVE("instancePreNew", "(JJ)J", svc_instance_pre_new),
    NATIVE("instancePreFree", "(J)V", svc_instance_pre_free),
    NATIVE("instanceNew", "(JJLdev/svc/engine/internal/HostCallHandler;)J", svc_instance_new),
    NATIVE("instanceFree", "(J)V", svc_instance_free),
    NATIVE("instanceStderr", "(J)[B", svc_instance_stderr),
    NATIVE("instanceStdout", "(J)[B", svc_instance_stdout),
    NATIVE("instanceMemorySize", "(J)J", svc_instance_memory_size),
    NATIVE("isStopped", "(J)Z", svc_instance_is_stopped),
    NATIVE("currentCpu", "()I", current_cpu),
    NATIVE("initialize", "(JJJ)V", svc_call_initialize),
    NATIVE("abiVersion", "(JJJ)I", svc_call_abi_version),
    NATIVE("call", "(J[BJJ)[B", svc_call_call),
    NATIVE("alloc", "(JIJJ)I", svc_call_alloc),
    NATIVE("free", "(JIIJJ)V", svc_call_free),
    NATIVE("callRaw", "(JIIJJ)J", svc_call_call_raw),
    NATIVE("memoryWrite", "(JI[B)V", svc_call_memory_write),
    NATIVE("memoryRead", "(JII)[B", svc_call_memory_read),
};

typedef struct load_step {
    int (*load)(JNIEnv *env);
    void (*unload)(JNIEnv *env);
} load_step;

static const load_step steps[] = {
    {svc_errors_load, svc_errors_unload},
    {svc_module_load, svc_module_unload},
    {svc_hostcall_load, svc_hostcall_unload},
};
#define STEP_COUNT (sizeof steps / sizeof steps[0])

JNIEXPORT jint JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void)reserved;
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
    size_t loaded = 0;
    for (; loaded < STEP_COUNT; loaded++) {
        if (steps[loaded].load(env) != 0) goto unwind;
    }
    jclass native_class = (*env)->FindClass(env, SVC_NATIVE_CLASS);
    if (!native_class) goto unwind;
    jint registered = (*env)->RegisterNatives(env, native_class, natives, sizeof natives / sizeof natives[0]);
    (*env)->DeleteLocalRef(env, native_class);
    if (registered != JNI_OK) goto unwind;
    self_test();
    return JNI_VERSION_1_8;
unwind:
    while (loaded > 0) steps[--loaded].unload(env);
    return JNI_ERR;
}

JNIEXPORT void JNI_OnUnload(JavaVM *vm, void *reserved) {
    (void)reserved;
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return;
    for (size_t i = STEP_COUNT; i > 0; i--) steps[i - 1].unload(env);
}
