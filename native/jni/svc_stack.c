/* Stack measurement and the big-stack helper thread; see svc_stack.h. */
#define _GNU_SOURCE /* pthread_getattr_np */
#include "svc_stack.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "svc_errors.h"

#define SVC_STACK_THREAD_NAME "svc-engine-stack"
/* Local references one task may make on the helper (the host-call path makes a handful). */
#define SVC_STACK_LOCAL_FRAME 16

typedef enum helper_state { HELPER_STARTING, HELPER_READY, HELPER_FAILED } helper_state;

typedef struct svc_stack_job {
    svc_stack_task task;
    void *data;
    jthrowable thrown; /* global ref to what the task left pending, or NULL */
    bool lost;         /* the task threw, but there was no memory to carry the exception over */
    bool finished;
} svc_stack_job;

struct svc_stack_helper {
    JavaVM *vm;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t posted;   /* caller -> helper: a job or quit */
    pthread_cond_t finished; /* helper -> caller: ready/failed at start, then a job done */
    helper_state state;      /* guarded by lock */
    svc_stack_job *job;      /* guarded by lock; NULL while idle */
    bool quit;               /* guarded by lock */
};

/* ---- measuring ---------------------------------------------------------------------------- */

/* The lowest address of this thread's stack, UINTPTR_MAX when unknown; measured on first use
 * because pthread_getattr_np is slow (it reads /proc/self/maps on the main thread). */
static _Thread_local uintptr_t stack_low;
static _Thread_local bool stack_measured;

static uintptr_t measure_stack_low(void) {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return UINTPTR_MAX;
    void *low = NULL;
    size_t size = 0;
    int status = pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_destroy(&attr);
    return status == 0 ? (uintptr_t)low : UINTPTR_MAX;
}

size_t svc_stack_needed(size_t max_wasm_stack) { return max_wasm_stack + SVC_STACK_MARGIN; }

bool svc_stack_is_short(size_t needed) {
    if (!stack_measured) {
        stack_low = measure_stack_low();
        stack_measured = true;
    }
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    return here < stack_low || here - stack_low < needed;
}

/* ---- the helper thread -------------------------------------------------------------------- */

/* Moves a pending exception into a global reference the caller's thread can throw. */
static void take_exception(JNIEnv *env, svc_stack_job *job) {
    if (!(*env)->ExceptionCheck(env)) return;
    jthrowable thrown = (*env)->ExceptionOccurred(env);
    (*env)->ExceptionClear(env);
    job->thrown = (*env)->NewGlobalRef(env, thrown);
    (*env)->DeleteLocalRef(env, thrown);
    if (!job->thrown) {
        (*env)->ExceptionClear(env);
        job->lost = true;
    }
}

/* A frame of its own per task, so local references never pile up on the long-lived helper. */
static void run_job(JNIEnv *env, svc_stack_job *job) {
    if ((*env)->PushLocalFrame(env, SVC_STACK_LOCAL_FRAME) != JNI_OK) {
        take_exception(env, job);
        return;
    }
    job->task(env, job->data);
    take_exception(env, job);
    (*env)->PopLocalFrame(env, NULL);
}

static void set_state(svc_stack_helper *helper, helper_state state) {
    pthread_mutex_lock(&helper->lock);
    helper->state = state;
    pthread_cond_signal(&helper->finished);
    pthread_mutex_unlock(&helper->lock);
}

/* Waits for a job (or quit) and returns it with the lock released; NULL means quit. */
static svc_stack_job *next_job(svc_stack_helper *helper) {
    pthread_mutex_lock(&helper->lock);
    while (!helper->job && !helper->quit) pthread_cond_wait(&helper->posted, &helper->lock);
    svc_stack_job *job = helper->quit ? NULL : helper->job;
    pthread_mutex_unlock(&helper->lock);
    return job;
}

static void finish_job(svc_stack_helper *helper, svc_stack_job *job) {
    pthread_mutex_lock(&helper->lock);
    helper->job = NULL;
    job->finished = true;
    pthread_cond_signal(&helper->finished);
    pthread_mutex_unlock(&helper->lock);
}

static void *helper_main(void *arg) {
    svc_stack_helper *helper = arg;
    JNIEnv *env = NULL;
    JavaVMAttachArgs attach = {JNI_VERSION_1_8, (char *)SVC_STACK_THREAD_NAME, NULL};
    /* A daemon: an engine nobody closed must not keep the JVM from exiting. */
    if ((*helper->vm)->AttachCurrentThreadAsDaemon(helper->vm, (void **)&env, &attach) != JNI_OK) {
        set_state(helper, HELPER_FAILED);
        return NULL;
    }
    set_state(helper, HELPER_READY);
    svc_stack_job *job;
    while ((job = next_job(helper)) != NULL) {
        run_job(env, job);
        finish_job(helper, job);
    }
    (*helper->vm)->DetachCurrentThread(helper->vm);
    return NULL;
}

static void free_helper(svc_stack_helper *helper) {
    pthread_cond_destroy(&helper->finished);
    pthread_cond_destroy(&helper->posted);
    pthread_mutex_destroy(&helper->lock);
    free(helper);
}

static bool spawn(svc_stack_helper *helper) {
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return false;
    bool spawned = pthread_attr_setstacksize(&attr, SVC_STACK_HELPER_SIZE) == 0 &&
                   pthread_create(&helper->thread, &attr, helper_main, helper) == 0;
    pthread_attr_destroy(&attr);
    return spawned;
}

static helper_state wait_until_started(svc_stack_helper *helper) {
    pthread_mutex_lock(&helper->lock);
    while (helper->state == HELPER_STARTING) pthread_cond_wait(&helper->finished, &helper->lock);
    helper_state state = helper->state;
    pthread_mutex_unlock(&helper->lock);
    return state;
}

svc_stack_helper *svc_stack_helper_start(JNIEnv *env, const char **problem) {
    svc_stack_helper *helper = calloc(1, sizeof *helper);
    if (!helper) {
        *problem = "no native memory for a big-stack thread to run a call from a thread with a short stack";
        return NULL;
    }
    pthread_mutex_init(&helper->lock, NULL);
    pthread_cond_init(&helper->posted, NULL);
    pthread_cond_init(&helper->finished, NULL);
    helper->state = HELPER_STARTING;
    if ((*env)->GetJavaVM(env, &helper->vm) != JNI_OK || !spawn(helper)) {
        free_helper(helper);
        *problem = "unable to create a native thread with an 8 MiB stack to run a call from a thread with a short "
                   "stack; run the call on a thread with a stack of at least 1 MiB";
        return NULL;
    }
    if (wait_until_started(helper) != HELPER_READY) {
        pthread_join(helper->thread, NULL);
        free_helper(helper);
        *problem = "the JVM refused to attach a big-stack thread for a call from a thread with a short stack";
        return NULL;
    }
    return helper;
}

void svc_stack_helper_run(svc_stack_helper *helper, JNIEnv *env, svc_stack_task task, void *data) {
    svc_stack_job job = {task, data, NULL, false, false};
    pthread_mutex_lock(&helper->lock);
    helper->job = &job;
    pthread_cond_signal(&helper->posted);
    while (!job.finished) pthread_cond_wait(&helper->finished, &helper->lock);
    pthread_mutex_unlock(&helper->lock);
    if (job.thrown) {
        (*env)->Throw(env, job.thrown);
        (*env)->DeleteGlobalRef(env, job.thrown);
    } else if (job.lost) {
        svc_throw_out_of_memory(env, "no memory to carry an exception from the big-stack thread to the caller");
    }
}

void svc_stack_helper_stop(svc_stack_helper *helper) {
    if (!helper) return;
    pthread_mutex_lock(&helper->lock);
    helper->quit = true;
    pthread_cond_signal(&helper->posted);
    pthread_mutex_unlock(&helper->lock);
    pthread_join(helper->thread, NULL);
    free_helper(helper);
}
