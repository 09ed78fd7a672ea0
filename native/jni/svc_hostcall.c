/* engine.host_call; see svc_hostcall.h. */
#include "svc_hostcall.h"

#include <stdint.h>
#include <stdlib.h>

#include "svc_errors.h"
#include "svc_instance.h"

static jclass handler_class;
static jmethodID host_call_method;

int svc_hostcall_load(JNIEnv *env) {
    jclass local = (*env)->FindClass(env, "dev/svc/engine/internal/HostCallHandler");
    if (!local) return -1;
    handler_class = (*env)->NewGlobalRef(env, local);
    (*env)->DeleteLocalRef(env, local);
    if (!handler_class) return -1;
    host_call_method = (*env)->GetMethodID(env, handler_class, "hostCall", "([B)[B");
    if (!host_call_method) {
        svc_hostcall_unload(env);
        return -1;
    }
    return 0;
}

void svc_hostcall_unload(JNIEnv *env) {
    if (handler_class) (*env)->DeleteGlobalRef(env, handler_class);
    handler_class = NULL;
    host_call_method = NULL;
}

uint8_t *svc_hostcall_answer(void *data, const uint8_t *bytes, size_t len, size_t *reply_len, svc_failure *failure) {
    svc_instance *instance = data;
    JNIEnv *env = instance->env;
    if (!env) {
        svc_failure_set(failure, SVC_KIND_HOST_EXCEPTION, "the module called engine.host_call outside a call");
        return NULL;
    }
    jbyteArray request = (*env)->NewByteArray(env, (jsize)len);
    if (!request) {
        failure->java_pending = true;
        svc_failure_set(failure, SVC_KIND_HOST_EXCEPTION, "no Java heap for a host call's request");
        return NULL;
    }
    (*env)->SetByteArrayRegion(env, request, 0, (jsize)len, (const jbyte *)bytes);
    jbyteArray reply = (*env)->CallObjectMethod(env, instance->handler, host_call_method, request);
    (*env)->DeleteLocalRef(env, request);
    /* INVARIANT: no JNI call but DeleteLocalRef while the handler's exception is pending. */
    if ((*env)->ExceptionCheck(env)) {
        if (reply) (*env)->DeleteLocalRef(env, reply);
        failure->java_pending = true;
        svc_failure_set(failure, SVC_KIND_HOST_EXCEPTION, "the host call handler threw an exception");
        return NULL;
    }
    if (!reply) {
        svc_failure_set(failure, SVC_KIND_HOST_EXCEPTION, "the host call handler returned null");
        return NULL;
    }
    jsize n = (*env)->GetArrayLength(env, reply);
    uint8_t *copy = malloc(n > 0 ? (size_t)n : 1u);
    if (!copy) {
        (*env)->DeleteLocalRef(env, reply);
        svc_failure_set(failure, SVC_KIND_MEMORY, "no native memory for a host function's response");
        return NULL;
    }
    (*env)->GetByteArrayRegion(env, reply, 0, n, (jbyte *)copy);
    (*env)->DeleteLocalRef(env, reply);
    *reply_len = (size_t)n;
    return copy;
}
