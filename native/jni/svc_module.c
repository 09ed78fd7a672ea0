/* Module compile/(de)serialize/introspection; see svc_module.h. */
#include "svc_module.h"

#include <stdlib.h>
#include <string.h>

#include "svc_engine.h"
#include "svc_errors.h"
#include "svc_text.h"

static jclass string_class;

int svc_module_load(JNIEnv *env) {
    jclass local = (*env)->FindClass(env, "java/lang/String");
    if (!local) return -1;
    string_class = (*env)->NewGlobalRef(env, local);
    (*env)->DeleteLocalRef(env, local);
    return string_class ? 0 : -1;
}

void svc_module_unload(JNIEnv *env) {
    if (string_class) (*env)->DeleteGlobalRef(env, string_class);
    string_class = NULL;
}

svc_module *svc_module_acquire(JNIEnv *env, jlong handle, svc_handle_slot **slot) {
    void *obj = NULL;
    svc_handle_status status = svc_handle_acquire_shared(handle, SVC_HANDLE_MODULE, &obj, slot);
    if (status != SVC_HANDLE_OK) {
        svc_throw_handle(env, status, "module");
        return NULL;
    }
    return obj;
}

const char *svc_module_kind_name(wasm_externkind_t kind) {
    switch (kind) {
    case SVC_WASM_EXTERN_FUNC: return "func";
    case SVC_WASM_EXTERN_GLOBAL: return "global";
    case SVC_WASM_EXTERN_TABLE: return "table";
    case SVC_WASM_EXTERN_MEMORY: return "memory";
    case SVC_WASM_EXTERN_TAG: return "tag";
    default: return "unknown";
    }
}

/* Copies a Java byte array into malloc'd memory (caller frees); NULL with an exception. */
static uint8_t *copy_bytes(JNIEnv *env, jbyteArray array, const char *name, size_t *len) {
    if (!array) {
        svc_throw_null_pointer(env, name);
        return NULL;
    }
    jsize n = (*env)->GetArrayLength(env, array);
    uint8_t *bytes = malloc(n > 0 ? (size_t)n : 1);
    if (!bytes) {
        svc_throw_out_of_memory(env, "no native memory to copy a module");
        return NULL;
    }
    (*env)->GetByteArrayRegion(env, array, 0, n, (jbyte *)bytes);
    *len = (size_t)n;
    return bytes;
}

/* Registers a freshly made module; returns its handle or 0 with an exception. Consumes raw. */
static jlong register_module(JNIEnv *env, wasmtime_module_t *raw, uint64_t engine_serial) {
    svc_module *module = malloc(sizeof *module);
    if (!module) {
        wasmtime_module_delete(raw);
        svc_throw_out_of_memory(env, "no native memory for a module");
        return 0;
    }
    module->module = raw;
    module->engine_serial = engine_serial;
    int64_t handle;
    svc_handle_status status = svc_handle_new(SVC_HANDLE_MODULE, module, &handle);
    if (status != SVC_HANDLE_OK) {
        wasmtime_module_delete(raw);
        free(module);
        svc_throw_handle(env, status, "module");
        return 0;
    }
    return handle;
}

/* How wasmtime turns bytes into a module: compile wasm, or load a serialized artifact. */
typedef wasmtime_error_t *(*module_loader)(wasm_engine_t *engine, const uint8_t *bytes, size_t len,
                                           wasmtime_module_t **out);

/* Copies `array` (named `what` in errors), builds a module from it with `load` on the engine, and
 * registers it. Returns the new handle, or 0 with a Java exception pending. */
static jlong load_module(JNIEnv *env, jlong engine_handle, jbyteArray array, const char *what,
                         module_loader load) {
    size_t len = 0;
    uint8_t *bytes = copy_bytes(env, array, what, &len);
    if (!bytes) return 0;
    svc_handle_slot *slot;
    svc_engine *engine = svc_engine_acquire(env, engine_handle, &slot);
    if (!engine) {
        free(bytes);
        return 0;
    }
    wasmtime_module_t *raw = NULL;
    wasmtime_error_t *error = load(engine->engine, bytes, len, &raw);
    uint64_t serial = engine->serial;
    svc_handle_release_shared(slot);
    free(bytes);
    if (error) {
        svc_throw_wasm_error(env, error);
        return 0;
    }
    return register_module(env, raw, serial);
}

jlong svc_module_compile(JNIEnv *env, jclass cls, jlong engine_handle, jbyteArray wasm) {
    (void)cls;
    return load_module(env, engine_handle, wasm, "wasm", wasmtime_module_new);
}

jbyteArray svc_module_serialize(JNIEnv *env, jclass cls, jlong module_handle) {
    (void)cls;
    svc_handle_slot *slot;
    svc_module *module = svc_module_acquire(env, module_handle, &slot);
    if (!module) return NULL;
    wasm_byte_vec_t artifact = {0, NULL};
    wasmtime_error_t *error = wasmtime_module_serialize(module->module, &artifact);
    svc_handle_release_shared(slot);
    if (error) {
        svc_throw_wasm_error(env, error);
        return NULL;
    }
    jbyteArray result = NULL;
    if (artifact.size > (size_t)INT32_MAX - 8) {
        svc_throw_wasm_error_text(env, "the serialized module is larger than a Java array can hold");
    } else {
        result = (*env)->NewByteArray(env, (jsize)artifact.size);
        if (result) (*env)->SetByteArrayRegion(env, result, 0, (jsize)artifact.size, (const jbyte *)artifact.data);
    }
    wasm_byte_vec_delete(&artifact);
    return result;
}

jlong svc_module_deserialize(JNIEnv *env, jclass cls, jlong engine_handle, jbyteArray artifact) {
    (void)cls;
    return load_module(env, engine_handle, artifact, "artifact", wasmtime_module_deserialize);
}

jlong svc_module_deserialize_file(JNIEnv *env, jclass cls, jlong engine_handle, jstring path) {
    (void)cls;
    if (!path) {
        svc_throw_null_pointer(env, "path");
        return 0;
    }
    char *utf8_path = svc_text_to_utf8(env, path);
    if (!utf8_path) return 0;
    svc_handle_slot *slot;
    svc_engine *engine = svc_engine_acquire(env, engine_handle, &slot);
    if (!engine) {
        free(utf8_path);
        return 0;
    }
    wasmtime_module_t *raw = NULL;
    wasmtime_error_t *error = wasmtime_module_deserialize_file(engine->engine, utf8_path, &raw);
    uint64_t serial = engine->serial;
    svc_handle_release_shared(slot);
    free(utf8_path);
    if (error) {
        svc_throw_wasm_error(env, error);
        return 0;
    }
    return register_module(env, raw, serial);
}

/* Appends name bytes and a separator to a growing buffer; false when out of memory. */
static bool append(uint8_t **buffer, size_t *len, size_t *capacity, const void *bytes, size_t n) {
    if (*len + n > *capacity) {
        size_t grown = (*capacity ? *capacity * 2 : 128);
        while (grown < *len + n) grown *= 2;
        uint8_t *bigger = realloc(*buffer, grown);
        if (!bigger) return false;
        *buffer = bigger;
        *capacity = grown;
    }
    if (n) memcpy(*buffer + *len, bytes, n);
    *len += n;
    return true;
}

/* Builds a String[] of NUL-joined descriptors; parts(i, out) fills up to 3 parts for entry i. */
typedef size_t (*descriptor_parts)(const void *vec_data, size_t i, const wasm_name_t *names[2],
                                   const char **kind);

static size_t import_parts(const void *data, size_t i, const wasm_name_t *names[2], const char **kind) {
    const wasm_importtype_t *import = ((wasm_importtype_t *const *)data)[i];
    names[0] = wasm_importtype_module(import);
    names[1] = wasm_importtype_name(import);
    *kind = svc_module_kind_name(wasm_externtype_kind(wasm_importtype_type(import)));
    return 2;
}

static size_t export_parts(const void *data, size_t i, const wasm_name_t *names[2], const char **kind) {
    const wasm_exporttype_t *export = ((wasm_exporttype_t *const *)data)[i];
    names[0] = wasm_exporttype_name(export);
    *kind = svc_module_kind_name(wasm_externtype_kind(wasm_exporttype_type(export)));
    return 1;
}

static jobjectArray descriptors(JNIEnv *env, const void *data, size_t count, descriptor_parts parts) {
    if (count > (size_t)INT32_MAX) {
        svc_throw_wasm_error_text(env, "the module declares more entries than a Java array can hold");
        return NULL;
    }
    jobjectArray result = (*env)->NewObjectArray(env, (jsize)count, string_class, NULL);
    if (!result) return NULL;
    uint8_t *buffer = NULL;
    size_t capacity = 0;
    for (size_t i = 0; i < count; i++) {
        const wasm_name_t *names[2];
        const char *kind;
        size_t n = parts(data, i, names, &kind);
        size_t len = 0;
        bool ok = true;
        for (size_t k = 0; k < n && ok; k++) {
            ok = append(&buffer, &len, &capacity, names[k]->data, names[k]->size) &&
                 append(&buffer, &len, &capacity, "", 1);
        }
        ok = ok && append(&buffer, &len, &capacity, kind, strlen(kind));
        if (!ok) {
            free(buffer);
            svc_throw_out_of_memory(env, "no native memory to list a module's imports or exports");
            return NULL;
        }
        jstring text = svc_text_new_string(env, buffer, len);
        if (!text) {
            free(buffer);
            return NULL;
        }
        (*env)->SetObjectArrayElement(env, result, (jsize)i, text);
        (*env)->DeleteLocalRef(env, text);
    }
    free(buffer);
    return result;
}

jobjectArray svc_module_imports(JNIEnv *env, jclass cls, jlong module_handle) {
    (void)cls;
    svc_handle_slot *slot;
    svc_module *module = svc_module_acquire(env, module_handle, &slot);
    if (!module) return NULL;
    wasm_importtype_vec_t imports = {0, NULL};
    wasmtime_module_imports(module->module, &imports);
    jobjectArray result = descriptors(env, imports.data, imports.size, import_parts);
    wasm_importtype_vec_delete(&imports);
    svc_handle_release_shared(slot);
    return result;
}

jobjectArray svc_module_exports(JNIEnv *env, jclass cls, jlong module_handle) {
    (void)cls;
    svc_handle_slot *slot;
    svc_module *module = svc_module_acquire(env, module_handle, &slot);
    if (!module) return NULL;
    wasm_exporttype_vec_t exports = {0, NULL};
    wasmtime_module_exports(module->module, &exports);
    jobjectArray result = descriptors(env, exports.data, exports.size, export_parts);
    wasm_exporttype_vec_delete(&exports);
    svc_handle_release_shared(slot);
    return result;
}

void svc_module_free(JNIEnv *env, jclass cls, jlong module_handle) {
    (void)cls;
    void *obj = NULL;
    svc_handle_status status = svc_handle_free(module_handle, SVC_HANDLE_MODULE, &obj);
    if (status != SVC_HANDLE_OK) {
        svc_throw_handle(env, status, "module");
        return;
    }
    svc_module *module = obj;
    /* Instance-pres made from it keep their own reference to the compiled code. */
    wasmtime_module_delete(module->module);
    free(module);
}
