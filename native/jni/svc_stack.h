/*
 * Native stack for guest calls.
 *
 * Guest code runs on the native stack of the thread that enters it: wasmtime lets it use up to
 * max_wasm_stack bytes below the entry point, and a host call's Java code runs below that. On a
 * thread whose stack is shorter (a Java thread made with a small stack size), a deep guest call
 * would run into the JVM's guard pages and kill the process instead of trapping. So every guest
 * entry first checks how much stack the calling thread has left; when that is too little, the
 * call runs on a helper thread with a big stack while the caller waits. The check is a
 * subtraction against the stack's low end, measured once per thread, so the common case, a
 * thread with enough stack, runs inline as fast as before.
 */
#ifndef SVC_STACK_H
#define SVC_STACK_H

#include <jni.h>
#include <stdbool.h>
#include <stddef.h>

/* The helper thread's stack: far above any max_wasm_stack svc configures (512 KiB). */
#define SVC_STACK_HELPER_SIZE ((size_t)8 << 20)

/* Room a guest entry needs beyond max_wasm_stack: HotSpot's guard zones at the low end of a Java
 * thread's stack (about 100 KiB on x86_64; pthread counts them as stack), wasmtime's own frames,
 * and a host call's Java frames below the deepest guest frame. */
#define SVC_STACK_MARGIN ((size_t)256 << 10)

/* One lazily started helper thread; opaque. */
typedef struct svc_stack_helper svc_stack_helper;

/* Work for the helper thread: runs with the helper's own JNIEnv. */
typedef void (*svc_stack_task)(JNIEnv *env, void *data);

/* Stack a guest entry needs on the calling thread for a given max_wasm_stack. */
size_t svc_stack_needed(size_t max_wasm_stack);

/* True when the calling thread has less than `needed` bytes of stack left below this call (or
 * its stack can't be measured). The stack's bounds are measured once per thread and cached. */
bool svc_stack_is_short(size_t needed);

/*
 * Starts a helper thread with an SVC_STACK_HELPER_SIZE stack, attached to the JVM as the daemon
 * thread "svc-engine-stack", and waits until it is ready. Caller frees it with
 * svc_stack_helper_stop. Returns NULL with *problem (a static message) when no thread could be
 * started or attached.
 */
svc_stack_helper *svc_stack_helper_start(JNIEnv *env, const char **problem);

/*
 * Runs task(helper_env, data) on the helper thread and waits for it. A Java exception the task
 * leaves pending on the helper is moved to env (the caller's), so it propagates as if the task
 * had run inline. One task at a time: callers serialize (an instance is used exclusively).
 */
void svc_stack_helper_run(svc_stack_helper *helper, JNIEnv *env, svc_stack_task task, void *data);

/* Ends the helper thread (detaching it from the JVM), joins it and frees everything. NULL is a
 * no-op. Must not be called from the helper thread itself. */
void svc_stack_helper_stop(svc_stack_helper *helper);

#endif /* SVC_STACK_H */
