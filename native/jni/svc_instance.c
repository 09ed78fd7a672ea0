/* Instance-pres and instances; see svc_instance.h. */
#include "svc_instance.h"

#include <stdlib.h>
#include <string.h>

#include "svc_engine.h"
#include "svc_hostcall.h"
#include "svc_module.h"

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
    char problem[SVC_PROBLEM_MAX];
    if (module->engine_serial != engine->serial) {
        svc_throw_illegal_argument(env, "the module was compiled by another engine");
        goto done;
    }
    pre = calloc(1, sizeof *pre);
    if (!pre) {
        svc_throw_out_of_memory(env, "no native memory for an instance-pre");
        goto done;
    }
    if (!svc_runtime_pre_init(pre, engine->engine, &engine->options, module->module, problem)) {
        svc_throw_wasm_error_text(env, problem);
        goto done;
    }
    int64_t handle;
    svc_handle_status status = svc_handle_new(SVC_HANDLE_PRE, pre, &handle);
    if (status != SVC_HANDLE_OK) {
        svc_throw_handle(env, status, "instance-pre");
        goto done;
    }
    result = handle;
    pre = NULL; /* owned by the handle now */
done:
    if (pre) {
        svc_runtime_pre_destroy(pre);
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
    svc_runtime_pre_destroy(obj);
    free(obj);
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

/* Deletes a (partially built) instance: the stack helper (idle: the instance is not in use),
 * the store, since its WASI context writes into the buffers, then the handler reference and the
 * struct. */
static void destroy_instance(JNIEnv *env, svc_instance *instance) {
    svc_stack_helper_stop(instance->stack_helper);
    svc_runtime_guest_destroy(&instance->guest);
    if (instance->handler) (*env)->DeleteGlobalRef(env, instance->handler);
    free(instance);
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
    instance->stack_needed = svc_stack_needed(pre->max_wasm_stack);
    if (handler) {
        instance->handler = (*env)->NewGlobalRef(env, handler);
        if (!instance->handler) goto done; /* OutOfMemoryError pending */
        instance->guest.answer = svc_hostcall_answer;
        instance->guest.answer_data = instance;
    }
    svc_failure failure = SVC_FAILURE_INIT;
    char problem[SVC_PROBLEM_MAX];
    instance->env = env;
    bool started = svc_runtime_guest_init(&instance->guest, pre, max_memory_bytes, &failure, problem);
    instance->env = NULL;
    if (!started) {
        if (failure.failed) {
            svc_throw_failure(env, &failure);
        } else {
            svc_throw_wasm_error_text(env, problem);
        }
        goto done;
    }
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
    size_t len = svc_buffer_render(stderr_stream ? &instance->guest.err : &instance->guest.out, text);
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
    jlong size = (jlong)svc_runtime_memory_size(&instance->guest);
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
