/*
 * Calls into the guest: _initialize, engine_abi_version, the whole engine_call round trip,
 * and the raw exports for tests and the host-call path; plus bounds-checked memory access.
 *
 * Every entry sets the epoch deadline and fuel first (a fresh store's deadline is 0, so an
 * entry without one would be interrupted at once). A trap, interrupt, fuel exhaustion or
 * proc_exit latches the instance as stopped; later entries throw IllegalStateException
 * without running guest code, because the guest's state may be half-updated.
 */
#ifndef SVC_CALL_H
#define SVC_CALL_H

#include <jni.h>

void svc_call_initialize(JNIEnv *env, jclass cls, jlong instance, jlong deadline_ticks, jlong fuel);
jint svc_call_abi_version(JNIEnv *env, jclass cls, jlong instance, jlong deadline_ticks, jlong fuel);
jbyteArray svc_call_call(JNIEnv *env, jclass cls, jlong instance, jbyteArray request, jlong deadline_ticks,
                         jlong fuel);
jint svc_call_alloc(JNIEnv *env, jclass cls, jlong instance, jint size, jlong deadline_ticks, jlong fuel);
void svc_call_free(JNIEnv *env, jclass cls, jlong instance, jint ptr, jint len, jlong deadline_ticks, jlong fuel);
jlong svc_call_call_raw(JNIEnv *env, jclass cls, jlong instance, jint ptr, jint len, jlong deadline_ticks,
                        jlong fuel);
void svc_call_memory_write(JNIEnv *env, jclass cls, jlong instance, jint ptr, jbyteArray bytes);
jbyteArray svc_call_memory_read(JNIEnv *env, jclass cls, jlong instance, jint ptr, jint len);

#endif /* SVC_CALL_H */
