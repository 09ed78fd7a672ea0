/*
 * The wasmtime-driving core that the JNI bridge and the engine host process (svc_host.c) share:
 * engine configuration, linking (WASI preview 1 + engine.host_call, ABI export checks), stores
 * with their memory limit and bounded output, guest entries with deadline and fuel, the
 * engine_call round trip, and the host_call callback. No JNI here: what differs between the two
 * users is behind three hooks of an svc_guest (who answers a host call, on which thread guest
 * code runs, where request and response bytes come from and go).
 *
 * Errors are values: a `problem` text (a static or snprintf'd message) for setup failures, an
 * svc_failure for a guest entry that stopped the instance.
 */
#ifndef SVC_RUNTIME_H
#define SVC_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "svc_buffer.h"
#include "svc_failure.h"
#include "wasmtime_decls.h"

/* Deadline for calls without one: far in the future, yet far from overflowing epoch + delta. */
#define SVC_EPOCH_FOREVER (UINT64_MAX / 4)
#define SVC_WASMTIME_DEFAULT_WASM_STACK ((size_t)512 << 10)
#define SVC_PROBLEM_MAX 256

/* How an engine is configured; a Module's engine and a host's engine must agree for a serialized
 * module of one to load in the other. */
typedef struct svc_engine_options {
    bool epoch;
    bool fuel;
    bool exceptions;
    int64_t max_wasm_stack;     /* 0 = wasmtime's default */
    int32_t pooling_slots;      /* 0 = no pooling allocator */
    int64_t pooling_max_memory; /* 0 = wasmtime's default */
} svc_engine_options;

/* Why no engine was made: an option out of range, no memory, or wasmtime said no. */
typedef enum svc_engine_refusal {
    SVC_ENGINE_BAD_OPTION = 1,
    SVC_ENGINE_NO_MEMORY = 2,
    SVC_ENGINE_REFUSED = 3,
} svc_engine_refusal;

/* A new engine, or NULL with *why and *problem (a static message) set. */
wasm_engine_t *svc_runtime_engine_new(const svc_engine_options *options, svc_engine_refusal *why,
                                      const char **problem);

/* A module linked against WASI and engine.host_call, with its ABI exports' types checked. */
typedef struct svc_pre {
    wasmtime_instance_pre_t *pre; /* owned */
    wasm_engine_t *engine;        /* owned clone: stores are made from it */
    bool epoch;
    bool fuel;
    bool has_memory, has_alloc, has_free, has_call, has_abi, has_init;
    uint64_t pooling_max_memory;
    size_t max_wasm_stack;
} svc_pre;

/* Fills *pre; false with problem filled (at most SVC_PROBLEM_MAX bytes). On failure *pre holds
 * nothing to free. */
bool svc_runtime_pre_init(svc_pre *pre, wasm_engine_t *engine, const svc_engine_options *options,
                          const wasmtime_module_t *module, char *problem);
void svc_runtime_pre_destroy(svc_pre *pre);

typedef struct svc_guest svc_guest;

/* One export call. The runner executes it (svc_runtime_call_now), inline or on another thread. */
typedef struct svc_guest_call {
    svc_guest *guest;
    const wasmtime_func_t *func;
    wasmtime_val_raw_t *args;
    size_t count;
    wasmtime_error_t *error;
    wasm_trap_t *trap;
} svc_guest_call;

typedef void (*svc_guest_runner)(void *data, svc_guest_call *call);

/*
 * Answers one host call: `request` is the module's bytes (valid only during the call). Returns
 * a malloc'd reply (*reply_len bytes; the core frees it), or NULL with failure recorded (kind and
 * message; java_pending when the answerer already reported it its own way).
 */
typedef uint8_t *(*svc_host_answer)(void *data, const uint8_t *request, size_t len, size_t *reply_len,
                                    svc_failure *failure);

struct svc_guest {
    wasmtime_store_t *store; /* owned; its data pointer is this struct */
    wasmtime_context_t *context;
    wasmtime_instance_t instance;
    wasmtime_memory_t memory;
    wasmtime_func_t fn_alloc, fn_free, fn_call, fn_abi, fn_init;
    bool has_memory, has_alloc, has_free, has_call, has_abi, has_init;
    bool epoch;
    bool fuel;
    uint64_t memory_limit; /* bytes memory can reach: store limit, pool cap or 4 GiB */
    /* The request buffer round trips reuse (0: none yet): an engine_alloc'd buffer of
     * kept_request_size bytes, pinned for the instance's life, so a round trip of a request that
     * fits enters the guest twice (engine_call, engine_free of the response) instead of four times. */
    uint32_t kept_request;
    uint32_t kept_request_size;
    /* Hooks, set by the user before entries: the runner (NULL = inline) and the host-call
     * answerer (NULL = host calls fail). */
    svc_guest_runner run;
    void *run_data;
    svc_host_answer answer;
    void *answer_data;
    /* A failure the host-call path recorded before it made wasmtime unwind (first cause wins). */
    svc_failure host_failure;
    svc_buffer out;
    svc_buffer err;
};

/*
 * Makes the store and instance; max_memory_bytes < 0 means no cap of our own. The hooks must be
 * set before (a start function may call the host). False with either *failure (the module trapped
 * or exited while instantiating) or problem filled. On failure, destroy it anyway.
 */
bool svc_runtime_guest_init(svc_guest *guest, const svc_pre *pre, int64_t max_memory_bytes, svc_failure *failure,
                            char *problem);
void svc_runtime_guest_destroy(svc_guest *guest);

/* Sets the epoch deadline (ticks > 0, else forever) and fuel (< 0: unlimited) for the next entry. */
void svc_runtime_prepare(svc_guest *guest, int64_t deadline_ticks, int64_t fuel);

/* Runs call on the calling thread; what a runner calls. */
void svc_runtime_call_now(svc_guest_call *call);

/* Runs one export through the guest's runner; false when it trapped, with the classified failure. */
bool svc_runtime_invoke(svc_guest *guest, const wasmtime_func_t *func, wasmtime_val_raw_t *args, size_t count,
                        svc_failure *failure);

/* True when memory cannot grow by another 64 KiB page: a trap now is an allocation failure. */
bool svc_runtime_memory_at_limit(const svc_guest *guest);
size_t svc_runtime_memory_size(const svc_guest *guest);

/* Where a round trip's request comes from and its response goes. */
typedef struct svc_round_trip_io {
    size_t request_len;
    void (*write_request)(void *data, uint8_t *dst); /* copies request_len bytes */
    /* Takes the response (valid only during the call); false when it can't (e.g. no memory for
     * it): the buffers are still freed and the round trip reports SVC_TRIP_OK all the same. */
    bool (*read_response)(void *data, const uint8_t *src, size_t len);
    void *data;
} svc_round_trip_io;

typedef enum svc_trip_status {
    SVC_TRIP_OK = 0,
    SVC_TRIP_NO_MEMORY = 1, /* engine_alloc returned 0: the module works on, the request wasn't run */
    SVC_TRIP_STOPPED = 2,   /* failure filled; the instance must be latched stopped */
} svc_trip_status;

/* Requests up to this many bytes go through the kept request buffer; a larger one gets a buffer of
 * its own, freed after its round trip, so an instance keeps at most this much pinned between calls. */
#define SVC_KEPT_REQUEST_MAX ((uint32_t)64 << 10)

/* The request into the kept buffer (engine_alloc'd when missing or too small, the old one freed
 * first) or, past SVC_KEPT_REQUEST_MAX, into a buffer of its own; engine_call; bounds check; read;
 * free the response, and a request buffer of its own. The exports must exist. */
svc_trip_status svc_runtime_round_trip(svc_guest *guest, const svc_round_trip_io *io, svc_failure *failure);

/* The engine.host_call import (linked by svc_runtime_pre_init). */
wasm_trap_t *svc_runtime_host_call(void *data, wasmtime_caller_t *caller, wasmtime_val_raw_t *args_and_results,
                                   size_t count);

#endif /* SVC_RUNTIME_H */
