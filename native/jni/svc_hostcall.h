/*
 * The bridge's answer to engine.host_call (svc_runtime.c reads the request and writes the reply
 * into the guest): HostCallHandler.hostCall(byte[]) on the thread running the guest, with that
 * call's JNIEnv from the instance. A Java exception from the handler stays pending and reaches
 * the caller.
 */
#ifndef SVC_HOSTCALL_H
#define SVC_HOSTCALL_H

#include <jni.h>
#include <stddef.h>

#include <stdint.h>

#include "svc_failure.h"

int svc_hostcall_load(JNIEnv *env);
void svc_hostcall_unload(JNIEnv *env);

/* svc_host_answer for an svc_instance (data). */
uint8_t *svc_hostcall_answer(void *data, const uint8_t *request, size_t len, size_t *reply_len, svc_failure *failure);

#endif /* SVC_HOSTCALL_H */
