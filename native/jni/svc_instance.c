/* Instance-pres and instances; see svc_instance.h. */
#include "svc_instance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svc_engine.h"
#include "svc_hostcall.h"
#include "svc_module.h"

#define SVC_PAGE_SIZE 65536u
#define SVC_WASM32_MAX_MEMORY ((uint64_t)4 << 30)

/* ---- ABI export checks -------------------------------------------------------------------- */

typedef struct abi_func {
    const char *name;
    size_t param_count;
    wasm_valkind_t params[2];
    size_t result_count;
    wasm_valkind_t result;
    const char *signature; /* for the error message */
} abi_func;

enum { ABI_ALLOC, ABI_FREE, ABI_CALL, ABI_VERSION, ABI_INIT, ABI_FUNC_COUNT };

static const abi_func abi_funcs[ABI_FUNC_COUNT] = {
    [ABI_ALLOC] = {"engine_alloc", 1, {SVC_WASM_I32, 0}, 1, SVC_WASM_I32, "(i32) -> i32"},
    [ABI_FREE] = {"engine_free", 2, {SVC_WASM_I32, SVC_WASM_I32}, 0, 0, "(i32, i32) -> ()"},
    [ABI_CALL] = {"engine_call", 2, {SVC_WASM_I32, SVC_WASM_I32}, 1, SVC_WASM_I64, "(i32, i32) -> i64"},
    [ABI_VERSION] = {"engine_abi_version", 0, {0, 0}, 1, SVC_WASM_I32, "() -> i32"},
    [ABI_INIT] = {"_initialize", 0, {0, 0}, 0, 0, "() -> ()"},
};

static bool name_is(const wasm_name_t *name, const char *expected) {
    size_t len = strlen(expected);
    return name->size == len && memcmp(name->data, expected, len) == 0;
}

static bool func_matches(const wasm_externtype_t *type, const abi_func *want) {
    if (wasm_externtype_kind(type) != SVC_WASM_EXTERN_FUNC) return false;
    const wasm_functype_t *func = wasm_externtype_as_functype_const(type);
    const wasm_valtype_vec_t *params = wasm_functype_params(func);
    const wasm_valtype_vec_t *results = wasm_functype_results(func);
    if (params->size != want->param_count || results->size != want->result_count) return false;
    for (size_t i = 0; i < params->size; i++) {
        if (wasm_valtype_kind(params->data[i]) != want->params[i]) return false;
    }
    return results->size == 0 || wasm_valtype_kind(results->data[0]) == want->result;
}

/* Fills the has_* flags; a known name with the wrong type fails with a WasmError, because the
 * bridge calls these exports unchecked. Returns false with an exception pending. */
static bool check_exports(JNIEnv *env, const wasmtime_module_t *module, svc_pre *pre) {
    bool *flags[ABI_FUNC_COUNT] = {&pre->has_alloc, &pre->has_free, &pre->has_call, &pre->has_abi,
                                   &pre->has_init};
    wasm_exporttype_vec_t exports = {0, NULL};
    wasmtime_module_exports(module, &exports);
    bool ok = true;
    char message[200];
    for (size_t i = 0; i < exports.size && ok; i++) {
        const wasm_name_t *name = wasm_exporttype_name(exports.data[i]);
        const wasm_externtype_t *type = wasm_exporttype_type(exports.data[i]);
        if (name_is(name, "memory")) {
            const wasm_memorytype_t *memory = wasm_externtype_kind(type) == SVC_WASM_EXTERN_MEMORY
                                                  ? wasm_externtype_as_memorytype_const(type)
                                                  : NULL;
            if (!memory || wasmtime_memorytype_is64(memory)) {
                svc_throw_wasm_error_text(env, "the module exports `memory`, but not as a 32-bit linear memory");
                ok = false;
            }
            pre->has_memory = true;
            continue;
        }
        for (int f = 0; f < ABI_FUNC_COUNT; f++) {
            if (!name_is(name, abi_funcs[f].name)) continue;
            if (!func_matches(type, &abi_funcs[f])) {
                snprintf(message, sizeof message, "the module exports `%s` with the wrong type; expected %s",
                         abi_funcs[f].name, abi_funcs[f].signature);
                svc_throw_wasm_error_text(env, message);
                ok = false;
            }
            *flags[f] = true;
        }
    }
    wasm_exporttype_vec_delete(&exports);
    return ok;
}

/* ---- instance-pres ------------------------------------------------------------------------ */

static wasmtime_error_t *define_host_call(wasmtime_linker_t *linker) {
    wasm_valtype_t *params[2] = {wasm_valtype_new(SVC_WASM_I32), wasm_valtype_new(SVC_WASM_I32)};
    wasm_valtype_t *results[1] = {wasm_valtype_new(SVC_WASM_I64)};
    wasm_valtype_vec_t param_vec, result_vec;
    wasm_valtype_vec_new(&param_vec, 2, params);
    wasm_valtype_vec_new(&result_vec, 1, results);
    wasm_functype_t *type = wasm_functype_new(&param_vec, &result_vec); /* consumes both */
    wasmtime_error_t *error = wasmtime_linker_define_func_unchecked(
        linker, "engine", 6, "host_call", 9, type, svc_hostcall_callback, NULL, NULL);
    wasm_functype_delete(type);
    return error;
}

jlong svc_instance_pre_new(JNIEnv *env, jclass cls, jlong engine_handle, jlong module_handle) {
    (void)cls;
    svc_handle_slot *engine_slot, *module_slot;
    svc_engine *engine = svc_engine_acquire(env, engine_handle, &engine_slot);
    if (!engine) return 0;
    svc_module *module = svc_module_acquire(env, module_handle, &module_slot);
    if (!module) {
        svc_handle_release_shared(engine_slot);
        return 0;
    }
    jlong result = 0;
    svc_pre *pre = NULL;
    wasmtime_linker_t *linker = NULL;
    if (module->engine_serial != engine->serial) {
        svc_throw_illegal_argument(env, "the module was compiled by another engine");
        goto done;
    }
    pre = calloc(1, sizeof *pre);
    if (!pre) {
        svc_throw_out_of_memory(env, "no native memory for an instance-pre");
        goto done;
    }
    if (!check_exports(env, module->module, pre)) goto done;
    linker = wasmtime_linker_new(engine->engine);
    wasmtime_error_t *error = wasmtime_linker_define_wasi(linker);
    if (!error) error = define_host_call(linker);
    if (error) {
        svc_throw_wasm_error(env, error);
        goto done;
    }
    error = wasmtime_linker_instantiate_pre(linker, module->module, &pre->pre);
    if (error) {
        svc_throw_wasm_error(env, error);
        goto done;
    }
    pre->engine = wasmtime_engine_clone(engine->engine);
    pre->epoch = engine->epoch;
    pre->fuel = engine->fuel;
    pre->pooling_max_memory = engine->pooling_max_memory;
    pre->stack_needed = svc_stack_needed(engine->max_wasm_stack);
    int64_t handle;
    svc_handle_status status = svc_handle_new(SVC_HANDLE_PRE, pre, &handle);
    if (status != SVC_HANDLE_OK) {
        svc_throw_handle(env, status, "instance-pre");
        goto done;
    }
    result = handle;
    pre = NULL; /* owned by the handle now */
done:
    if (linker) wasmtime_linker_delete(linker);
    if (pre) {
        if (pre->pre) wasmtime_instance_pre_delete(pre->pre);
        if (pre->engine) wasm_engine_delete(pre->engine);
        free(pre);
    }
    svc_handle_release_shared(module_slot);
    svc_handle_release_shared(engine_slot);
    return result;
}

void svc_instance_pre_free(JNIEnv *env, jclass cls, jlong handle) {
    (void)cls;
    void *obj = NULL;
    svc_handle_status status = svc_handle_free(handle, SVC_HANDLE_PRE, &obj);
    if (status != SVC_HANDLE_OK) {
        svc_throw_handle(env, status, "instance-pre");
        return;
    }
    svc_pre *pre = obj;
    /* Instances made from it keep their own references through their stores. */
    wasmtime_instance_pre_delete(pre->pre);
    wasm_engine_delete(pre->engine);
    free(pre);
}

/* ---- instances ---------------------------------------------------------------------------- */

svc_instance *svc_instance_acquire(JNIEnv *env, jlong handle, svc_handle_slot **slot) {
    void *obj = NULL;
    svc_handle_status status = svc_handle_acquire_exclusive(handle, SVC_HANDLE_INSTANCE, &obj, slot);
    if (status != SVC_HANDLE_OK) {
        svc_throw_handle(env, status, "instance");
        return NULL;
    }
    return obj;
}

bool svc_instance_memory_at_limit(const svc_instance *instance) {
    if (!instance->has_memory) return false;
    uint64_t size = wasmtime_memory_data_size(instance->context, &instance->memory);
    return size + SVC_PAGE_SIZE > instance->memory_limit;
}

/* Deletes a (partially built) instance: the stack helper (idle: the instance is not in use),
 * the store, since its WASI context writes into the buffers, then the handler reference and the
 * struct. */
static void destroy_instance(JNIEnv *env, svc_instance *instance) {
    svc_stack_helper_stop(instance->stack_helper);
    if (instance->store) wasmtime_store_delete(instance->store);
    if (instance->handler) (*env)->DeleteGlobalRef(env, instance->handler);
    svc_failure_clear(&instance->host_failure);
    free(instance);
}

static bool export_func(svc_instance *instance, const char *name, wasmtime_func_t *out) {
    wasmtime_extern_t item;
    if (!wasmtime_instance_export_get(instance->context, &instance->instance, name, strlen(name), &item)) {
        return false;
    }
    if (item.kind != SVC_WASMTIME_EXTERN_FUNC) return false;
    *out = item.of.func;
    return true;
}

jlong svc_instance_new(JNIEnv *env, jclass cls, jlong pre_handle, jlong max_memory_bytes, jobject handler) {
    (void)cls;
    void *obj = NULL;
    svc_handle_slot *pre_slot;
    svc_handle_status status = svc_handle_acquire_shared(pre_handle, SVC_HANDLE_PRE, &obj, &pre_slot);
    if (status != SVC_HANDLE_OK) {
        svc_throw_handle(env, status, "instance-pre");
        return 0;
    }
    svc_pre *pre = obj;
    jlong result = 0;
    svc_instance *instance = calloc(1, sizeof *instance);
    if (!instance) {
        svc_throw_out_of_memory(env, "no native memory for an instance");
        goto done;
    }
    svc_buffer_init(&instance->out);
    svc_buffer_init(&instance->err);
    instance->host_failure = (svc_failure)SVC_FAILURE_INIT;
    instance->epoch = pre->epoch;
    instance->fuel = pre->fuel;
    instance->stack_needed = pre->stack_needed;
    instance->memory_limit = SVC_WASM32_MAX_MEMORY;
    if (max_memory_bytes >= 0 && (uint64_t)max_memory_bytes < instance->memory_limit) {
        instance->memory_limit = (uint64_t)max_memory_bytes;
    }
    if (pre->pooling_max_memory > 0 && pre->pooling_max_memory < instance->memory_limit) {
        instance->memory_limit = pre->pooling_max_memory;
    }
    instance->store = wasmtime_store_new(pre->engine, instance, NULL);
    instance->context = wasmtime_store_context(instance->store);
    if (max_memory_bytes >= 0) {
        /* A refused memory.grow returns -1 to the guest; it does not trap. */
        wasmtime_store_limiter(instance->store, max_memory_bytes, -1, -1, -1, -1);
    }
    wasi_config_t *wasi = wasi_config_new();
    wasi_config_set_stdout_custom(wasi, svc_buffer_wasi_write, &instance->out, NULL);
    wasi_config_set_stderr_custom(wasi, svc_buffer_wasi_write, &instance->err, NULL);
    wasmtime_error_t *error = wasmtime_context_set_wasi(instance->context, wasi); /* consumes wasi */
    if (error) {
        svc_throw_wasm_error(env, error);
        goto done;
    }
    /* A start function (if any) runs during instantiation: give it no deadline and all fuel. */
    wasmtime_context_set_epoch_deadline(instance->context, SVC_EPOCH_FOREVER);
    if (instance->fuel) {
        error = wasmtime_context_set_fuel(instance->context, UINT64_MAX);
        if (error) wasmtime_error_delete(error);
    }
    if (handler) {
        instance->handler = (*env)->NewGlobalRef(env, handler);
        if (!instance->handler) goto done; /* OutOfMemoryError pending */
    }
    wasm_trap_t *trap = NULL;
    instance->env = env;
    error = wasmtime_instance_pre_instantiate(pre->pre, instance->context, &instance->instance, &trap);
    instance->env = NULL;
    if (error || trap) {
        if (trap || instance->host_failure.failed) {
            svc_failure failure = SVC_FAILURE_INIT;
            svc_failure_move(&failure, &instance->host_failure);
            svc_failure_from_wasmtime(&failure, trap, error);
            svc_throw_failure(env, &failure);
        } else {
            svc_throw_wasm_error(env, error);
        }
        goto done;
    }
    if (pre->has_memory) {
        wasmtime_extern_t item;
        instance->has_memory =
            wasmtime_instance_export_get(instance->context, &instance->instance, "memory", 6, &item) &&
            item.kind == SVC_WASMTIME_EXTERN_MEMORY;
        if (instance->has_memory) instance->memory = item.of.memory;
    }
    instance->has_alloc = pre->has_alloc && export_func(instance, "engine_alloc", &instance->fn_alloc);
    instance->has_free = pre->has_free && export_func(instance, "engine_free", &instance->fn_free);
    instance->has_call = pre->has_call && export_func(instance, "engine_call", &instance->fn_call);
    instance->has_abi = pre->has_abi && export_func(instance, "engine_abi_version", &instance->fn_abi);
    instance->has_init = pre->has_init && export_func(instance, "_initialize", &instance->fn_init);
    int64_t handle;
    status = svc_handle_new(SVC_HANDLE_INSTANCE, instance, &handle);
    if (status != SVC_HANDLE_OK) {
        svc_throw_handle(env, status, "instance");
        goto done;
    }
    result = handle;
    instance = NULL; /* owned by the handle now */
done:
    if (instance) destroy_instance(env, instance);
    svc_handle_release_shared(pre_slot);
    return result;
}

void svc_instance_free(JNIEnv *env, jclass cls, jlong handle) {
    (void)cls;
    void *obj = NULL;
    svc_handle_status status = svc_handle_free(handle, SVC_HANDLE_INSTANCE, &obj);
    if (status != SVC_HANDLE_OK) {
        svc_throw_handle(env, status, "instance");
        return;
    }
    destroy_instance(env, obj);
}

static jbyteArray render_output(JNIEnv *env, jlong handle, bool stderr_stream) {
    svc_handle_slot *slot;
    svc_instance *instance = svc_instance_acquire(env, handle, &slot);
    if (!instance) return NULL;
    uint8_t text[SVC_BUFFER_RENDER_MAX];
    size_t len = svc_buffer_render(stderr_stream ? &instance->err : &instance->out, text);
    svc_handle_release_exclusive(slot);
    jbyteArray result = (*env)->NewByteArray(env, (jsize)len);
    if (result) (*env)->SetByteArrayRegion(env, result, 0, (jsize)len, (const jbyte *)text);
    return result;
}

jbyteArray svc_instance_stderr(JNIEnv *env, jclass cls, jlong handle) {
    (void)cls;
    return render_output(env, handle, true);
}

jbyteArray svc_instance_stdout(JNIEnv *env, jclass cls, jlong handle) {
    (void)cls;
    return render_output(env, handle, false);
}

jlong svc_instance_memory_size(JNIEnv *env, jclass cls, jlong handle) {
    (void)cls;
    svc_handle_slot *slot;
    svc_instance *instance = svc_instance_acquire(env, handle, &slot);
    if (!instance) return 0;
    jlong size = instance->has_memory ? (jlong)wasmtime_memory_data_size(instance->context, &instance->memory) : 0;
    svc_handle_release_exclusive(slot);
    return size;
}

jboolean svc_instance_is_stopped(JNIEnv *env, jclass cls, jlong handle) {
    (void)cls;
    bool stopped = false;
    svc_handle_status status = svc_handle_peek_stopped(handle, SVC_HANDLE_INSTANCE, &stopped);
    if (status != SVC_HANDLE_OK) {
        svc_throw_handle(env, status, "instance");
        return JNI_FALSE;
    }
    return stopped ? JNI_TRUE : JNI_FALSE;
}
